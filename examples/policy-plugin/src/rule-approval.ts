/**
 * The approval seam: a cordis Service at `ctx.approval` that the ToolRuntime consults when
 * `tools/pre-execute` answers `ask`. This one answers from rules instead of a human; a real
 * harness would show a prompt and wait.
 */
import { type Context, Service } from '@deepseek-ai/cordis'
import type { ApprovalService, JsonValue, ToolExecution } from '@dsh/tools-core'
import type { ApprovalRule } from './config'

declare module '@deepseek-ai/cordis' {
  interface Context {
    approval: RuleApproval
  }
}

/** The string value of `key` in a call's arguments. */
export function argumentString(args: JsonValue, key: string): string | undefined {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return undefined
  const value = (args as { readonly [key: string]: JsonValue })[key]
  return typeof value === 'string' ? value : undefined
}

/** The first rule matching `execution`, if any. */
export function matchRule(
  rules: readonly ApprovalRule[],
  execution: ToolExecution,
): ApprovalRule | undefined {
  return rules.find((rule) => {
    if (rule.tool !== '*' && rule.tool !== execution.name) return false
    if (rule.pattern === undefined) return true
    const value = argumentString(execution.arguments, rule.argument ?? 'command')
    return value !== undefined && new RegExp(rule.pattern).test(value)
  })
}

/** One answered request, for audit. */
export interface ApprovalRecord {
  readonly callId: string
  readonly tool: string
  readonly approved: boolean
  readonly reason: string
}

/** Rule-driven approval service, registered as `approval`. */
export class RuleApproval extends Service implements ApprovalService {
  /** Every answer given, in order. */
  readonly history: ApprovalRecord[] = []
  private readonly rules: readonly ApprovalRule[]

  constructor(ctx: Context, rules: readonly ApprovalRule[]) {
    super(ctx, 'approval')
    this.rules = rules
  }

  async request(
    execution: ToolExecution,
    reason: string | undefined,
  ): Promise<{ approved: boolean; reason?: string }> {
    const rule = matchRule(this.rules, execution)
    const answer = rule
      ? { approved: rule.approved, reason: rule.reason }
      : {
          approved: false,
          reason: `no approval rule covers ${execution.name}${reason ? ` (${reason})` : ''}`,
        }
    this.history.push({ callId: execution.callId, tool: execution.name, ...answer })
    return answer
  }
}

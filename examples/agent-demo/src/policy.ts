/**
 * The demo's policy, in the three places dsh-tools offers one:
 * - a `tools/pre-execute` listener (the reorderable allow / deny / ask gate),
 * - a guard (monotonic: its denial cannot be turned back into permission),
 * - an approval service at `ctx.approval` that answers `ask` by rule, standing in for a human.
 * Every decision is appended to a log the loop prints next to the call's card.
 */
import { type Context, Service } from '@deepseek-ai/cordis'
import { isApprovalCheck } from '@dsh/tools-ai-sdk'
import type { ApprovalService, JsonValue, PreToolDecision, ToolExecution } from '@dsh/tools-core'

declare module '@deepseek-ai/cordis' {
  interface Context {
    approval: DemoApproval
  }
}

/** One policy decision, as printed. */
export interface PolicyDecision {
  readonly callId: string
  readonly tool: string
  readonly stage: 'pre-execute' | 'guard' | 'approval'
  readonly verdict: 'allow' | 'ask' | 'deny' | 'approved' | 'denied'
  readonly reason: string
}

/** Where decisions go. */
export type PolicyLog = PolicyDecision[]

function field(args: JsonValue, key: string): string | undefined {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return undefined
  const value = (args as { readonly [key: string]: JsonValue })[key]
  return typeof value === 'string' ? value : undefined
}

/** The gate: reads (and the runtime's `read_result` / `tool_search`) are free, edits and shell commands need approval, `run_code` itself is allowed. */
export function preExecuteRule(execution: ToolExecution): PreToolDecision & { readonly reason: string } {
  switch (execution.name) {
    case 'read':
    case 'glob':
    case 'grep':
      return { kind: 'allow', reason: 'read-only' }
    case 'read_result':
      return { kind: 'allow', reason: 'pages a result the agent already got' }
    case 'tool_search':
      return { kind: 'allow', reason: 'finds deferred tools' }
    case 'run_code':
      return { kind: 'allow', reason: 'each tool call inside the program is checked on its own' }
    case 'edit':
    case 'write':
      return { kind: 'ask', reason: `modifies ${field(execution.arguments, 'file_path') ?? 'a file'}` }
    case 'bash':
      return { kind: 'ask', reason: `runs \`${field(execution.arguments, 'command') ?? '?'}\`` }
    default:
      return { kind: 'ask', reason: `unfamiliar tool ${execution.name}` }
  }
}

const secretFile = /(^|\/)\.env(\.|$)|(^|\/)id_(rsa|ed25519)$/

/** The guard: no tool may touch secrets files, whatever the gate said. */
export function secretsGuardRule(execution: ToolExecution): string | undefined {
  const path = field(execution.arguments, 'file_path') ?? field(execution.arguments, 'path')
  if (path !== undefined && secretFile.test(path)) return 'secrets files (.env, private keys) are off limits'
  const command = field(execution.arguments, 'command')
  if (command !== undefined && /\.env\b/.test(command))
    return 'secrets files (.env, private keys) are off limits'
  return undefined
}

/** The approval rules: edits inside the workspace and the test command pass; anything else is refused. */
export function approvalRule(
  workspace: string,
  execution: ToolExecution,
): { approved: boolean; reason: string } {
  const path = field(execution.arguments, 'file_path')
  if ((execution.name === 'edit' || execution.name === 'write') && path !== undefined) {
    const inside = path.startsWith(`${workspace}/`) || !path.startsWith('/')
    return inside
      ? { approved: true, reason: 'edit inside the workspace' }
      : { approved: false, reason: 'edit outside the workspace' }
  }
  const command = field(execution.arguments, 'command')
  if (execution.name === 'bash' && command !== undefined) {
    return /^(node --test|npm test)(\s|$)/.test(command.trim())
      ? { approved: true, reason: 'the test command is on the allowlist' }
      : { approved: false, reason: 'not on the allowlist — a human would have to approve this' }
  }
  return { approved: false, reason: 'no rule approves this' }
}

/** Config of the approval service. */
export interface DemoApprovalConfig {
  readonly workspace: string
  readonly log: PolicyLog
}

/** The approval seam (`ctx.approval`): answers `ask` decisions by rule and logs each answer. */
export class DemoApproval extends Service implements ApprovalService {
  private readonly config: DemoApprovalConfig

  constructor(ctx: Context, config: DemoApprovalConfig) {
    super(ctx, 'approval')
    this.config = config
  }

  async request(
    execution: ToolExecution,
    _reason: string | undefined,
  ): Promise<{ approved: boolean; reason?: string }> {
    const answer = approvalRule(this.config.workspace, execution)
    this.config.log.push({
      callId: execution.callId,
      tool: execution.name,
      stage: 'approval',
      verdict: answer.approved ? 'approved' : 'denied',
      reason: answer.reason,
    })
    return answer
  }
}

/** Install the gate listener and the guard on `ctx`; both end with its fiber. */
export function installDemoPolicy(ctx: Context, log: PolicyLog): void {
  ctx.on('tools/pre-execute', async (execution, next) => {
    const decision = preExecuteRule(execution)
    // `--provider ai-sdk`: the AI SDK's approval check asks the same gate first; log the call once.
    if (!isApprovalCheck(execution))
      log.push({
        callId: execution.callId,
        tool: execution.name,
        stage: 'pre-execute',
        verdict: decision.kind,
        reason: decision.reason,
      })
    if (decision.kind === 'allow') return next()
    return decision.kind === 'ask' ? { kind: 'ask', reason: decision.reason } : decision
  })
  ctx.tools.guard((execution) => {
    const reason = secretsGuardRule(execution)
    if (reason !== undefined) {
      log.push({ callId: execution.callId, tool: execution.name, stage: 'guard', verdict: 'deny', reason })
    }
    return reason
  })
}

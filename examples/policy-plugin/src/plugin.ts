/**
 * A policy plugin in the three places dsh-tools has for policy:
 * - `tools/pre-execute`: calls to the `askFor` tools become `ask`, answered by
 * - the approval service (`ctx.approval`, {@link RuleApproval}) from `rules`;
 * - a guard (monotonic: nothing later can undo it) denying calls whose string arguments match
 *   `denyArguments` (e.g. `\.env$`);
 * - `tools/post-execute`: secrets in successful results are redacted — in the value when there
 *   is one (which re-renders the content), otherwise in the content — and a context note tells
 *   the model something was redacted.
 * Load it on an agent scope's ctx to make the listeners and guard that agent's only.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { JsonValue, PostToolDecision } from '@dsh/tools-core'
import { Config, type PolicyConfigInput } from './config'
import { redactContent, redactJson } from './redact'
import { RuleApproval } from './rule-approval'

export { Config }

/** The plugin's name (fiber diagnostics). */
export const name = 'example-policy'

/** The plugin needs the `ToolRuntime` at `ctx.tools`. */
export const inject = ['tools']

function stringArguments(args: JsonValue): string[] {
  const out: string[] = []
  const stack: JsonValue[] = [args]
  while (stack.length > 0) {
    const value = stack.pop() as JsonValue
    if (typeof value === 'string') out.push(value)
    else if (value !== null && typeof value === 'object') stack.push(...Object.values(value))
  }
  return out
}

/**
 * Install the approval service, the gate, the guard and the redaction. cordis has validated
 * the config already; validating again (idempotent) makes a direct call safe too.
 */
export async function apply(ctx: Context, input?: PolicyConfigInput): Promise<void> {
  const validated = Config['~standard'].validate(input)
  if (validated.issues) {
    throw new TypeError(`invalid policy config: ${validated.issues.map((issue) => issue.message).join('; ')}`)
  }
  const config = validated.value
  await ctx.plugin(RuleApproval, config.rules)

  ctx.on('tools/pre-execute', async (execution, next) => {
    if (config.askFor.includes(execution.name))
      return { kind: 'ask', reason: `${execution.name} needs approval` }
    return next()
  })

  ctx.tools.guard((execution) => {
    const hit = stringArguments(execution.arguments).find((value) =>
      config.denyArguments.some((re) => re.test(value)),
    )
    return hit === undefined ? undefined : `argument "${hit}" is off limits`
  })

  ctx.on('tools/post-execute', async (execution, result, next): Promise<PostToolDecision> => {
    const decision = await next()
    if (result.isError || decision.kind === 'block') return decision
    // Respect an upstream listener's replacement: redact what it produced.
    if (decision.content !== undefined) {
      const redacted = redactContent(decision.content, config.secretPatterns, config.replacement)
      return redacted.count === 0 ? decision : { ...decision, content: redacted.content }
    }
    const base = decision.value !== undefined ? decision.value : result.value
    const byValue = redactJson(base, config.secretPatterns, config.replacement)
    const note = (count: number) => [
      ...(decision.additionalContexts ?? []),
      { source: name, text: `${count} secret(s) were redacted from the result of ${execution.name}.` },
    ]
    if (byValue.count > 0)
      return { kind: 'accept', value: byValue.value, additionalContexts: note(byValue.count) }
    const byContent = redactContent(result.content, config.secretPatterns, config.replacement)
    if (byContent.count > 0)
      return { kind: 'accept', content: byContent.content, additionalContexts: note(byContent.count) }
    return decision
  })
}

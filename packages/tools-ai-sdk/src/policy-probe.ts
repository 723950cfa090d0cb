import type { Context } from '@deepseek-ai/cordis'
import {
  createScopedEmitter,
  type PreToolDecision,
  type ScopedEmitter,
  type ScopeKey,
  snapshotJson,
  type ToolExecution,
  type ToolExecutionToken,
} from '@dsh/tools-core'

const ALLOW: Promise<PreToolDecision> = Promise.resolve(Object.freeze({ kind: 'allow' }))
const NEVER_ABORTED = new AbortController().signal

const emitters = new WeakMap<Context, ScopedEmitter>()
const checks = new WeakSet<ToolExecution>()

/**
 * Whether a `tools/pre-execute` listener is looking at an approval check (the AI SDK asking,
 * before it runs a call, whether our policy would ask) rather than the pipeline's own gate. The
 * check runs the same listeners over a fresh execution; a listener with side effects — a log,
 * a rate counter — skips them for a check, so each call counts once.
 *
 * @example
 * ctx.on('tools/pre-execute', async (exec, next) => {
 *   if (!isApprovalCheck(exec)) audit.push(exec.name)
 *   return next()
 * })
 */
export function isApprovalCheck(execution: ToolExecution): boolean {
  return checks.has(execution)
}

function emitterOf(ctx: Context): ScopedEmitter {
  let emitter = emitters.get(ctx)
  if (emitter === undefined) {
    emitter = createScopedEmitter(ctx)
    emitters.set(ctx, emitter)
  }
  return emitter
}

/** What the policy would say about a call: `ask` (with its reason), or nothing to ask. */
export type ProbeAnswer = { readonly ask: true; readonly reason?: string } | undefined

/**
 * Ask the `tools/pre-execute` listeners that see `agent` what they decide for a call, without
 * running it: the same waterfall the pipeline's gate runs (step 5), over a fresh frozen
 * execution with its own token. No approval service, guard or body runs and no event is
 * emitted. Anything but a clean `ask` — allow, deny, a throwing listener, arguments that are
 * not JSON — answers "nothing to ask": the real call then ends as the pipeline decides.
 */
export async function probePolicy(
  ctx: Context,
  agent: ScopeKey | undefined,
  call: { readonly toolCallId: string; readonly toolName: string; readonly input: unknown },
): Promise<ProbeAnswer> {
  const listeners = emitterOf(ctx).listeners('tools/pre-execute', agent)
  if (listeners.length === 0) return undefined
  let args: ToolExecution['arguments']
  try {
    args = snapshotJson(call.input)
  } catch {
    return undefined
  }
  const execution: ToolExecution = Object.freeze({
    token: Symbol('dsh-tools.ai-sdk.approval-check') as ToolExecutionToken,
    callId: call.toolCallId,
    name: call.toolName,
    arguments: args,
    signal: NEVER_ABORTED,
    ...(agent === undefined ? {} : { agent }),
  })
  checks.add(execution)
  const level = (index: number): (() => Promise<PreToolDecision>) => {
    const listener = listeners[index]
    if (listener === undefined) return () => ALLOW
    return () => listener(execution, level(index + 1))
  }
  let decision: PreToolDecision
  try {
    decision = await level(0)()
  } catch {
    return undefined
  }
  if (decision?.kind !== 'ask') return undefined
  const reason = (decision as { reason?: unknown }).reason
  return typeof reason === 'string' ? { ask: true, reason } : { ask: true }
}

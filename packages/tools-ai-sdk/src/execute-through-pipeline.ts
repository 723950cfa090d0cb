import type { Context } from '@deepseek-ai/cordis'
import type { ScopeKey, ToolExecutionResult } from '@dsh/tools-core'
import type { ToolExecutionOptions } from 'ai'
import { approvalInMessages } from './approval-evidence'
import { admitApproved } from './approval-gate'
import { PipelineCall } from './pipeline-call'
import { progressRoutes } from './progress-routes'
import { runOncePerApproval } from './spent-approvals'
import type { AiSdkToolOutput } from './types'

const NEVER_ABORTED = new AbortController().signal

/**
 * The `execute` of one tool of `aiSdkTools`: the AI SDK's call runs `ctx.tools.execute`, the
 * whole pipeline, once. It returns an async iterable, so the AI SDK streams each
 * `exec.progress(...)` report as a preliminary result; the last value is the final output. A
 * failure rejects with an `AiSdkToolError`, which the AI SDK reports as a tool error. A call the
 * AI SDK runs because a person approved it has its `ask` answered (see `admitApproved`), once
 * per approval (see `runOncePerApproval`).
 */
export function executeThroughPipeline(ctx: Context, agent: ScopeKey | undefined, name: string) {
  // Resolved once per tool set, as a loop holds it: each `ctx.tools` is a cordis proxy lookup.
  const tools = ctx.tools
  const routes = progressRoutes(ctx)
  const start = (callId: string, input: unknown, signal: AbortSignal | undefined) =>
    tools.execute({
      callId,
      name,
      arguments: input,
      signal: signal ?? NEVER_ABORTED,
      ...(agent === undefined ? {} : { agent }),
    })

  return function execute(
    input: unknown,
    options: ToolExecutionOptions<unknown>,
  ): AsyncIterable<AiSdkToolOutput> {
    const callId = options.toolCallId
    const approvalId = approvalInMessages(options.messages, callId, name)
    if (approvalId === undefined) {
      const call = new PipelineCall(routes, callId, name, undefined)
      return call.follow(start(callId, input, options.abortSignal))
    }
    let release: (() => void) | undefined
    const call = new PipelineCall(routes, callId, name, () => release?.())
    const once = runOncePerApproval(ctx, approvalId, (): Promise<ToolExecutionResult> => {
      release = admitApproved(ctx, agent, callId, name)
      return start(callId, input, options.abortSignal)
    })
    return call.follow(once.result)
  }
}

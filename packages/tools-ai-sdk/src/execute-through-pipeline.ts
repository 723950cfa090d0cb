import type { Context } from '@deepseek-ai/cordis'
import type { ScopeKey, ToolExecutionResult } from '@dsh/tools-core'
import type { ToolExecutionOptions } from 'ai'
import { AiSdkToolError } from './ai-sdk-tool-error'
import { approvalInMessages } from './approval-evidence'
import { admitApproved } from './approval-gate'
import { openProgressChannel } from './progress-channel'
import { runOncePerApproval } from './spent-approvals'
import type { AiSdkToolDone, AiSdkToolOutput } from './types'

const NEVER_ABORTED = new AbortController().signal

function finalOutput(result: ToolExecutionResult): AiSdkToolDone {
  if (result.isError) throw new AiSdkToolError(result)
  const done = { status: 'done' as const, value: result.value, content: result.content }
  return result.additionalContexts === undefined || result.additionalContexts.length === 0
    ? done
    : { ...done, additionalContexts: result.additionalContexts }
}

/**
 * The `execute` of one tool of `aiSdkTools`: the AI SDK's call runs `ctx.tools.execute`, the
 * whole pipeline, once. An async iterable, so the AI SDK streams each `exec.progress(...)`
 * report as a preliminary result; the last value yielded is the final output. A failure is
 * thrown as an {@link AiSdkToolError}, which the AI SDK reports as a tool error. A call the AI
 * SDK runs because a person approved it has its `ask` answered (see `admitApproved`), once per
 * approval (see `runOncePerApproval`).
 */
export function executeThroughPipeline(ctx: Context, agent: ScopeKey | undefined, name: string) {
  const start = (callId: string, input: unknown, signal: AbortSignal | undefined) =>
    ctx.tools.execute({
      callId,
      name,
      arguments: input,
      signal: signal ?? NEVER_ABORTED,
      ...(agent === undefined ? {} : { agent }),
    })

  return async function* execute(
    input: unknown,
    options: ToolExecutionOptions<unknown>,
  ): AsyncGenerator<AiSdkToolOutput, void, undefined> {
    const callId = options.toolCallId
    const approvalId = approvalInMessages(options.messages, callId, name)
    const progress = openProgressChannel(ctx, callId, name)
    let release: (() => void) | undefined
    try {
      let running: Promise<ToolExecutionResult>
      if (approvalId === undefined) running = start(callId, input, options.abortSignal)
      else {
        const once = runOncePerApproval(ctx, approvalId, () => {
          release = admitApproved(ctx, callId, name)
          return start(callId, input, options.abortSignal)
        })
        if (once.replayed) {
          yield finalOutput(await once.result)
          return
        }
        running = once.result
      }
      let settled: ToolExecutionResult | undefined
      const done = running.then((result) => {
        settled = result
      })
      for (;;) {
        const update = progress.take()
        if (update !== undefined) {
          yield { status: 'progress', progress: update }
          continue
        }
        if (settled !== undefined) break
        await Promise.race([done, progress.wait()])
      }
      yield finalOutput(settled)
    } finally {
      progress.close()
      release?.()
    }
  }
}

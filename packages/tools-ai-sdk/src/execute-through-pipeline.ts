import type { Context } from '@deepseek-ai/cordis'
import type { ScopeKey, ToolExecutionResult } from '@dsh/tools-core'
import type { ToolExecutionOptions } from 'ai'
import { AiSdkToolError } from './ai-sdk-tool-error'
import { approvedInMessages } from './approval-evidence'
import { admitApproved } from './approval-gate'
import { openProgressChannel } from './progress-channel'
import type { AiSdkToolDone, AiSdkToolOutput } from './types'

const NEVER_ABORTED = new AbortController().signal

function finalOutput(result: Extract<ToolExecutionResult, { isError: false }>): AiSdkToolDone {
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
 * SDK runs because a person approved it has its `ask` answered (see `admitApproved`).
 */
export function executeThroughPipeline(ctx: Context, agent: ScopeKey | undefined, name: string) {
  return async function* execute(
    input: unknown,
    options: ToolExecutionOptions<unknown>,
  ): AsyncGenerator<AiSdkToolOutput, void, undefined> {
    const callId = options.toolCallId
    const release = approvedInMessages(options.messages, callId, name)
      ? admitApproved(ctx, callId, name)
      : undefined
    const progress = openProgressChannel(ctx, callId, name)
    try {
      let settled: ToolExecutionResult | undefined
      const running = ctx.tools
        .execute({
          callId,
          name,
          arguments: input,
          signal: options.abortSignal ?? NEVER_ABORTED,
          ...(agent === undefined ? {} : { agent }),
        })
        .then((result) => {
          settled = result
        })
      for (;;) {
        const update = progress.take()
        if (update !== undefined) {
          yield { status: 'progress', progress: update }
          continue
        }
        if (settled !== undefined) break
        await Promise.race([running, progress.wait()])
      }
      const result: ToolExecutionResult = settled
      if (result.isError) throw new AiSdkToolError(result)
      yield finalOutput(result)
    } finally {
      progress.close()
      release?.()
    }
  }
}

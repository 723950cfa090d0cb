import type { Context } from '@deepseek-ai/cordis'
import { type ToolDispatchExecution, type ToolExecutionResult, ToolTimeoutError } from '@dsh/tools-core'
import { startDeadline } from './deadline'

/** A `tools/execute` listener. */
export type ToolExecuteWrapper = (
  exec: ToolDispatchExecution,
  next: () => Promise<ToolExecutionResult>,
) => Promise<ToolExecutionResult>

/**
 * Build the `tools/execute` wrapper that enforces each tool's declared `timeoutMs`.
 *
 * For a tool whose visible definition (`ctx.tools.get(name, agent)`) declares `timeoutMs`, it
 * fuses a deadline into `exec.signal`, awaits `next()` — the body is never killed, the wrapper
 * waits for it to settle — restores the caller's signal and clears the timer. If the deadline
 * fired first, the outcome of `next()` (value or failure) is replaced by a `ToolTimeoutError`
 * (`TOOL_TIMEOUT`, `tool call timed out after <ms>ms`). A caller abort disarms the deadline, so
 * it surfaces as whatever `next()` produced (normally `ABORTED`). Other tools pass untouched.
 *
 * @param ctx — the context whose `tools` service resolves definitions.
 */
export function createTimeoutWrapper(ctx: Context): ToolExecuteWrapper {
  return async (exec, next) => {
    const timeoutMs = ctx.tools.get(exec.name, exec.agent)?.timeoutMs
    const original = exec.signal
    if (timeoutMs === undefined || original.aborted) return next()
    const deadline = startDeadline(original, timeoutMs, () => new ToolTimeoutError(timeoutMs))
    exec.signal = deadline.signal
    try {
      const result = await next()
      if (deadline.expired) throw new ToolTimeoutError(timeoutMs)
      return result
    } catch (error) {
      if (deadline.expired) throw new ToolTimeoutError(timeoutMs, { cause: error })
      throw error
    } finally {
      deadline.dispose()
      exec.signal = original
    }
  }
}

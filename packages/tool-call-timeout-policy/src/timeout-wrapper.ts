import type { Context } from '@deepseek-ai/cordis'
import { type ToolDispatchExecution, type ToolExecutionResult, ToolTimeoutError } from '@dsh/tools-core'
import { type Deadline, startDeadline } from './deadline'

/** A `tools/execute` listener. */
export type ToolExecuteWrapper = (
  exec: ToolDispatchExecution,
  next: (signal?: AbortSignal) => Promise<ToolExecutionResult>,
) => Promise<ToolExecutionResult>

/** Options of {@link createTimeoutWrapper}. */
export interface TimeoutWrapperOptions {
  /**
   * Deadlines of running calls by execution token; the wrapper adds each deadline it starts and
   * removes it when the call's dispatch ends. Pass a map to restart deadlines from outside
   * (the plugin does so on `tools/progress` when `resetTimeoutOnProgress` is on).
   */
  readonly active?: Map<symbol, Deadline>
}

/**
 * Build the `tools/execute` wrapper that enforces each tool's declared `timeoutMs`.
 *
 * For a tool whose visible definition (`ctx.tools.get(name, agent)`) declares `timeoutMs`, it
 * fuses a deadline with `exec.signal` and passes the fused signal on with `next(signal)` — the
 * body is never killed, the wrapper waits for it to settle — then clears the timer. Its own view
 * keeps the signal it was given, so there is nothing to restore. If the deadline
 * fired first, the outcome of `next()` (value or failure) is replaced by a `ToolTimeoutError`
 * (`TOOL_TIMEOUT`, `tool call timed out after <ms>ms`). A caller abort disarms the deadline, so
 * it surfaces as whatever `next()` produced (normally `ABORTED`). Other tools pass untouched.
 *
 * @param ctx — the context whose `tools` service resolves definitions.
 * @param options — optional registry of active deadlines (see {@link TimeoutWrapperOptions}).
 */
export function createTimeoutWrapper(ctx: Context, options: TimeoutWrapperOptions = {}): ToolExecuteWrapper {
  const { active } = options
  return async (exec, next) => {
    const timeoutMs = ctx.tools.get(exec.name, exec.agent)?.timeoutMs
    const signal = exec.signal
    if (timeoutMs === undefined || signal.aborted) return next()
    const deadline = startDeadline(signal, timeoutMs, () => new ToolTimeoutError(timeoutMs))
    active?.set(exec.token, deadline)
    try {
      const result = await next(deadline.signal)
      if (deadline.expired) throw new ToolTimeoutError(timeoutMs)
      return result
    } catch (error) {
      if (deadline.expired) throw new ToolTimeoutError(timeoutMs, { cause: error })
      throw error
    } finally {
      if (active?.get(exec.token) === deadline) active.delete(exec.token)
      deadline.dispose()
    }
  }
}

import type { ToolRunContext } from '@dsh/tools-core'
import type { Progress } from '@modelcontextprotocol/sdk/types.js'

/** The progress update SPEC §12 plans for `exec.progress(update)`. */
interface ProgressUpdate {
  readonly progress: number
  readonly total?: number
  readonly message?: string
}

/**
 * Forward an MCP progress notification to the run context. SPEC §12's `exec.progress` does not
 * exist yet, so today this is a no-op; once the runtime offers it, MCP progress flows through
 * without a change here. (Progress already keeps a slow server alive: calls are made with
 * `resetTimeoutOnProgress`.) A throwing reporter never fails the call.
 */
export function forwardProgress(exec: ToolRunContext, progress: Progress): void {
  const report = (exec as { progress?: unknown }).progress
  if (typeof report !== 'function') return
  const update: ProgressUpdate = {
    progress: progress.progress,
    ...(progress.total === undefined ? {} : { total: progress.total }),
    ...(progress.message === undefined ? {} : { message: progress.message }),
  }
  try {
    report.call(exec, update)
  } catch {
    // observation only
  }
}

/**
 * Progress reports (`tools/progress`) seen during one batch, by call id. The loop prints a
 * call's cards after the batch settles, so it keeps each call's reports and shows them between
 * the call card and the result card, where they happened.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { ToolProgressUpdate } from '@dsh/tools-core'

/** One report as a line: its message, else `progress/total`. */
export function progressText(update: ToolProgressUpdate): string {
  if (update.message !== undefined) return update.message
  if (update.progress !== undefined)
    return update.total === undefined ? `${update.progress}` : `${update.progress}/${update.total}`
  return `${update.total ?? ''}`
}

export class ProgressLog {
  private readonly lines = new Map<string, string[]>()

  /** Start recording; returns the function that stops. */
  listen(ctx: Context): () => void {
    return ctx.on('tools/progress', (execution, update) => {
      const list = this.lines.get(execution.callId) ?? []
      list.push(progressText(update))
      this.lines.set(execution.callId, list)
    })
  }

  /** The recorded lines of one call, in report order. */
  of(callId: string): readonly string[] {
    return this.lines.get(callId) ?? []
  }
}

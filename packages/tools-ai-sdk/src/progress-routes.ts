import type { Context } from '@deepseek-ai/cordis'
import type { ToolExecution, ToolProgressUpdate } from '@dsh/tools-core'

/** A call in flight that wants its progress reports. */
export interface ProgressSink {
  readonly name: string
  push(update: ToolProgressUpdate): void
}

/** Calls in flight by callId. */
export type ProgressRoutes = Map<string, ProgressSink>

// One `tools/progress` listener per context, shared by every call it runs: a listener per call
// would cost each call a registration on the event bus.
const routers = new WeakMap<Context, ProgressRoutes>()

/** The routing table of `ctx`, its listener installed on first use. */
export function progressRoutes(ctx: Context): ProgressRoutes {
  let routes = routers.get(ctx)
  if (routes === undefined) {
    const table: ProgressRoutes = new Map()
    routes = table
    routers.set(ctx, table)
    ctx.on('tools/progress', (execution: ToolExecution, update: ToolProgressUpdate) => {
      // Top-level calls only: a Code Mode sub-call's report carries the sub-call's execution.
      if (execution.parent !== undefined) return
      const sink = table.get(execution.callId)
      if (sink !== undefined && sink.name === execution.name) sink.push(update)
    })
  }
  return routes
}

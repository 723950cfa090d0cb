import type { Context } from '@deepseek-ai/cordis'
import type { ToolExecution, ToolProgressUpdate } from '@dsh/tools-core'

/** The progress reports of one call in flight, in report order, with a way to wait for more. */
export interface ProgressChannel {
  /** The oldest report not taken yet, or `undefined`. */
  take(): ToolProgressUpdate | undefined
  /** Settles at the next report (or at once when one is waiting). */
  wait(): Promise<void>
  /** Stop routing reports here. */
  close(): void
}

interface Route {
  readonly name: string
  readonly queue: ToolProgressUpdate[]
  wake: (() => void) | undefined
}

type Routes = Map<string, Route>

// One `tools/progress` listener per context, shared by every call it runs: a listener per call
// would cost each call a registration on the event bus.
const routers = new WeakMap<Context, Routes>()

function routesOf(ctx: Context): Routes {
  let routes = routers.get(ctx)
  if (routes === undefined) {
    const table: Routes = new Map()
    routes = table
    routers.set(ctx, table)
    ctx.on('tools/progress', (execution: ToolExecution, update: ToolProgressUpdate) => {
      // Top-level calls only: a Code Mode sub-call's report carries the sub-call's execution.
      if (execution.parent !== undefined) return
      const route = table.get(execution.callId)
      if (route === undefined || route.name !== execution.name) return
      route.queue.push(update)
      const wake = route.wake
      route.wake = undefined
      wake?.()
    })
  }
  return routes
}

/** Route the `tools/progress` reports of the top-level call `callId` (of tool `name`) here. */
export function openProgressChannel(ctx: Context, callId: string, name: string): ProgressChannel {
  const routes = routesOf(ctx)
  const route: Route = { name, queue: [], wake: undefined }
  // A second call with the same id in flight keeps the first route: ids are the model's and
  // unique per response; a duplicate simply streams no progress.
  const owned = !routes.has(callId)
  if (owned) routes.set(callId, route)
  return {
    take: () => route.queue.shift(),
    wait: () =>
      route.queue.length > 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            route.wake = resolve
          }),
    close() {
      if (owned && routes.get(callId) === route) routes.delete(callId)
      route.wake?.()
      route.wake = undefined
    },
  }
}

import type { ToolDispatchExecution, ToolExecution } from '../types'

const FIXED: PropertyDescriptor = { writable: false }

/** Which fields turn read-only, per shape of execution (with or without `agent` / `parent`). */
const shapes: PropertyDescriptorMap[] = [0, 1, 2, 3].map((shape) => {
  const map: PropertyDescriptorMap = { token: FIXED, callId: FIXED, name: FIXED, arguments: FIXED }
  if (shape & 1) map.agent = FIXED
  if (shape & 2) map.parent = FIXED
  return map
})

/**
 * The view one `tools/execute` wrapper gets: the execution's fields, read-only, and the `signal`
 * its outer wrapper passed on. Each wrapper gets a view of its own, so nothing a wrapper does to
 * its view is seen by the wrappers around it. `signal` stays assignable (the older form of
 * `next(signal)`; the body refuses anything that is not an `AbortSignal`) but cannot be deleted.
 */
export function dispatchView(execution: ToolExecution, signal: AbortSignal): ToolDispatchExecution {
  const view: Record<string, unknown> = {
    token: execution.token,
    callId: execution.callId,
    name: execution.name,
    arguments: execution.arguments,
    signal,
  }
  let shape = 0
  if (execution.agent !== undefined) {
    view.agent = execution.agent
    shape |= 1
  }
  if (execution.parent !== undefined) {
    view.parent = execution.parent
    shape |= 2
  }
  return Object.seal(Object.defineProperties(view, shapes[shape]!)) as unknown as ToolDispatchExecution
}

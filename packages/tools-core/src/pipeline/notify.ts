import { listenersFor } from '../internal/listeners'
import type { ToolStageEvent } from '../types'
import type { ToolCall } from './tool-call'

/**
 * Emit an observe-only event for one call to the listeners that see its agent. A listener
 * that throws (or returns a promise that rejects) is reported, never propagated: observers
 * cannot change or break a call. Costs one table lookup when nobody listens. Nothing but the
 * `tools/result` of its publication is emitted for a published call.
 */
export function notify(call: ToolCall, event: string, payload: unknown): void {
  // Once published (possibly early, by a disposal's grace bound), a call tells nobody anything more.
  if (call.published !== undefined && event !== 'tools/result') return
  const listeners = listenersFor(call.runtime.hooks, event, call.execution.agent)
  if (listeners === undefined) return
  for (const listener of listeners) {
    try {
      const returned = listener(call.execution, payload)
      if (typeof returned?.then === 'function') {
        returned.then(undefined, (error: unknown) => call.runtime.report(`${event} listener failed`, error))
      }
    } catch (error) {
      call.runtime.report(`${event} listener failed`, error)
    }
  }
}

/** Emit one `tools/stage` event; the event object is frozen so listeners share it safely. */
export function notifyStage(call: ToolCall, event: ToolStageEvent): void {
  if (call.runtime.hooks['tools/stage'] === undefined) return
  notify(call, 'tools/stage', Object.freeze(event))
}

/** The payload-free stage events every call emits, allocated once (the hot path allocates nothing). */
export const Stage = Object.freeze({
  START: Object.freeze({ stage: 'start' }),
  BODY_START: Object.freeze({ stage: 'body-start' }),
  BODY_OK: Object.freeze({ stage: 'body-end', isError: false }),
  BODY_FAILED: Object.freeze({ stage: 'body-end', isError: true }),
} as const satisfies Record<string, ToolStageEvent>)

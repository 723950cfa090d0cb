import type { ScopeKey, ToolDispatchExecution, ToolExecution, ToolExecutionToken } from '../types'

/**
 * The view one `tools/execute` wrapper gets: the execution's fields, read-only, and the `signal`
 * its outer wrapper passed on. Each wrapper gets a view of its own, so nothing a wrapper does to
 * its view is seen by the wrappers around it. `signal` stays assignable (the older form of
 * `next(signal)`; the body refuses anything that is not an `AbortSignal`) but cannot be deleted.
 *
 * A frozen instance whose own `signal` is an accessor over a private field: every field stays an
 * own enumerable property (spreading a view keeps them all), and building one costs a fraction
 * of a microsecond, where `defineProperties` + `seal` cost several per wrapper level.
 */
class DispatchView {
  #signal: unknown
  declare readonly token: ToolExecutionToken
  declare readonly callId: string
  declare readonly name: string
  declare readonly arguments: ToolExecution['arguments']
  declare readonly agent?: ScopeKey
  declare readonly parent?: ToolExecutionToken

  static readonly #signalProperty: PropertyDescriptor = {
    get(this: DispatchView) {
      return this.#signal
    },
    set(this: DispatchView, value: unknown) {
      this.#signal = value
    },
    enumerable: true,
    configurable: false,
  }

  constructor(execution: ToolExecution, signal: AbortSignal) {
    const fields = this as { -readonly [K in keyof DispatchView]: DispatchView[K] }
    fields.token = execution.token
    fields.callId = execution.callId
    fields.name = execution.name
    fields.arguments = execution.arguments
    if (execution.agent !== undefined) fields.agent = execution.agent
    if (execution.parent !== undefined) fields.parent = execution.parent
    this.#signal = signal
    Object.defineProperty(this, 'signal', DispatchView.#signalProperty)
    Object.freeze(this)
  }
}

/** Build the view of one wrapper level (see {@link DispatchView}). */
export function dispatchView(execution: ToolExecution, signal: AbortSignal): ToolDispatchExecution {
  return new DispatchView(execution, signal) as unknown as ToolDispatchExecution
}

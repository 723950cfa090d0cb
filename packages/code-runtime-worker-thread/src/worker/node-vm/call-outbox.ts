/**
 * How the node:vm worker sends binding calls. A call made while no other is outstanding (a
 * sequential await of one binding) is posted at once: `postMessage` clones the arguments
 * synchronously, so the snapshot is taken here as for a batched call, and the host starts on it
 * while this thread finishes its turn. Calls made while others are outstanding are snapshotted
 * now (`structuredClone`) and travel together at the end of the microtask turn.
 */

/** The calls message of the wire protocol: `[id, name, args, …]`. */
export interface CallsMessage {
  readonly k: 'calls'
  readonly c: unknown[]
}

/** What a {@link CallOutbox} needs from its worker. */
export interface CallOutboxPorts {
  readonly post: (message: CallsMessage) => void
  /** Run `callback` once the current microtask turn ends (`queueMicrotask` in the worker). */
  readonly endOfMicrotasks: (callback: () => void) => void
  /** Called before a call is posted at once, so earlier log lines arrive first. */
  readonly beforePost: () => void
  /** Deep copy of a call's arguments (`structuredClone`); throws for uncloneable values. */
  readonly clone: (value: unknown) => unknown
  /** Why a call's copied arguments may not be sent (too many values, too deep), or `undefined`. */
  readonly check?: (name: string, copy: unknown) => string | undefined
}

/** Describe why a call's arguments could not be sent. */
export function cloneFailure(name: string, error: unknown): string {
  const message = (error as { message?: unknown } | null | undefined)?.message
  const reason = typeof message === 'string' ? message : 'value could not be cloned'
  return 'arguments for ' + name + ' are not JSON-cloneable: ' + reason
}

/** Numbers, batches and counts one run's binding calls. */
export class CallOutbox {
  readonly #ports: CallOutboxPorts
  #nextId = 0
  #outstanding = 0
  #outbox: unknown[] = []
  #flushQueued = false
  #closed = false

  constructor(ports: CallOutboxPorts) {
    this.#ports = ports
  }

  /** Calls sent and not yet answered. */
  get outstanding(): number {
    return this.#outstanding
  }

  /** Start a call: its id, or why it could not be sent (the program sees a `ToolCallError`). */
  call(name: unknown, args: unknown): number | string {
    if (this.#closed) return 'the run has ended'
    if (typeof name !== 'string') return 'invalid binding name'
    const id = this.#nextId + 1
    // Copied first, so the check measures the worker's own data and what is posted is what it measured.
    let copy: unknown
    try {
      copy = this.#ports.clone(args)
    } catch (error) {
      return cloneFailure(name, error)
    }
    const refused = this.#ports.check?.(name, copy)
    if (refused !== undefined) return refused
    if (this.#outstanding === 0 && this.#outbox.length === 0) {
      try {
        this.#ports.beforePost()
        this.#ports.post({ k: 'calls', c: [id, name, copy] })
      } catch (error) {
        return cloneFailure(name, error)
      }
    } else {
      this.#outbox.push(id, name, copy)
      if (!this.#flushQueued) {
        this.#flushQueued = true
        this.#ports.endOfMicrotasks(() => this.#flush())
      }
    }
    this.#nextId = id
    this.#outstanding += 1
    return id
  }

  /** One reply arrived. */
  answered(): void {
    if (this.#outstanding > 0) this.#outstanding -= 1
  }

  /** The run has ended: batched calls are dropped and new ones refused. */
  close(): void {
    this.#closed = true
  }

  #flush(): void {
    this.#flushQueued = false
    if (this.#closed || this.#outbox.length === 0) return
    this.#ports.beforePost()
    const calls = this.#outbox
    this.#outbox = []
    this.#ports.post({ k: 'calls', c: calls })
  }
}

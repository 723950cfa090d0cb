/**
 * Spreads a run's sub-call work over event-loop turns. A program's calls arrive in batches (one
 * worker message can carry hundreds), and each call costs the host in proportion to the JSON
 * values of its arguments: admitting them (parse and snapshot) and dispatching them (the tool
 * pipeline validates them). Within one turn those costs add up: six calls of a million keys each
 * stalled the host for 13–17 s. A per-call cap bounds one call; this bounds a turn: once the
 * work done in the current turn has cost `perTurn` values, the rest waits, in order, for later
 * turns, so the host's event loop runs between them.
 */

/** One piece of work: it runs, and returns its cost in JSON values. */
export type TurnWork = () => number

/** A FIFO of work that runs at most about `perTurn` values' worth per event-loop turn. */
export class TurnBudget {
  readonly #perTurn: number
  readonly #queue: TurnWork[] = []
  #spent = 0
  #turnScheduled = false

  /** A budget of `perTurn` JSON values per turn (the piece that crosses it still runs whole). */
  constructor(perTurn: number) {
    this.#perTurn = perTurn
  }

  /** How many pieces of work wait for a later turn. */
  get waiting(): number {
    return this.#queue.length
  }

  /** Run `work` now if nothing waits and this turn has budget left; otherwise queue it, in order. */
  run(work: TurnWork): void {
    if (this.#queue.length === 0 && this.#spent < this.#perTurn) this.#charge(work())
    else {
      this.#queue.push(work)
      this.#scheduleTurn()
    }
  }

  /** Run everything still waiting now (the run has ended: each piece only refuses its call). */
  flush(): void {
    while (this.#queue.length > 0) this.#queue.shift()!()
  }

  #charge(cost: number): void {
    this.#spent += cost
    this.#scheduleTurn()
  }

  #scheduleTurn(): void {
    if (this.#turnScheduled) return
    this.#turnScheduled = true
    setImmediate(this.#nextTurn)
  }

  readonly #nextTurn = (): void => {
    this.#turnScheduled = false
    this.#spent = 0
    while (this.#queue.length > 0 && this.#spent < this.#perTurn) this.#charge(this.#queue.shift()!())
    if (this.#queue.length > 0) this.#scheduleTurn()
  }
}

/**
 * The per-run scheduling pool of the dispatch bridge: the native batch contract applied to
 * binding calls that arrive one by one.
 */

/** A unit of work the pool schedules. */
export interface DispatchJob {
  /** `true` when the call is classified `exclusive` (it runs alone and bars later calls). */
  readonly exclusive: boolean
}

/**
 * Starts jobs in strict submission order. Consecutive non-exclusive jobs overlap up to
 * `maxParallel`; an exclusive job waits until every running job has finished, runs alone,
 * and nothing submitted after it starts before it finishes. The pool does not run anything
 * itself: it hands each job to `start`, and the runner reports back through {@link finish}.
 */
export class DispatchPool<J extends DispatchJob> {
  private readonly queue: J[] = []
  private head = 0
  private running = 0
  private exclusiveRunning = false
  private closed = false
  private onIdle: (() => void) | undefined = undefined

  /**
   * @param maxParallel — how many jobs may run at once (integer ≥ 1; 1 = serial).
   * @param start — begins a job; must report its end through {@link finish}.
   */
  constructor(
    private readonly maxParallel: number,
    private readonly start: (job: J) => void,
  ) {}

  /** Jobs running right now. */
  get active(): number {
    return this.running
  }

  /** Whether `job`, submitted now, would start at once (nothing queued ahead of it, a slot free). */
  wouldStart(job: J): boolean {
    if (this.closed || this.exclusiveRunning || this.head < this.queue.length) return false
    return job.exclusive ? this.running === 0 : this.running < this.maxParallel
  }

  /** Queue a job; it starts as soon as the scheduling rules allow. Throws once the pool is closed. */
  submit(job: J): void {
    if (this.closed) throw new Error('dispatch pool is closed')
    this.queue.push(job)
    this.pump()
  }

  /** Report that a started job has settled. */
  finish(job: J): void {
    this.running--
    if (job.exclusive) this.exclusiveRunning = false
    if (this.closed) {
      if (this.running === 0) this.onIdle?.()
    } else {
      this.pump()
    }
  }

  /**
   * Stop starting jobs. Returns the queued jobs that never started (in submission order);
   * the caller settles them. Running jobs keep running; await {@link idle} for them.
   */
  close(): J[] {
    this.closed = true
    const abandoned = this.queue.slice(this.head)
    this.queue.length = 0
    this.head = 0
    return abandoned
  }

  /** Resolves once no started job is still running. */
  idle(): Promise<void> {
    if (this.running === 0) return Promise.resolve()
    return new Promise((resolve) => {
      this.onIdle = resolve
    })
  }

  private pump(): void {
    const queue = this.queue
    while (this.head < queue.length && !this.closed) {
      if (this.exclusiveRunning) return
      const job = queue[this.head]!
      if (job.exclusive ? this.running > 0 : this.running >= this.maxParallel) return
      this.head++
      if (this.head === queue.length) {
        queue.length = 0
        this.head = 0
      }
      this.running++
      if (job.exclusive) this.exclusiveRunning = true
      this.start(job)
    }
  }
}

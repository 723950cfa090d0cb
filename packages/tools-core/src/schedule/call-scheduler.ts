/** A unit of work the scheduler starts: a tool call, or whatever its caller wraps one in. */
export interface ScheduledJob {
  /** `true` when the call is classified `exclusive`: it runs alone and bars every later job. */
  readonly exclusive: boolean
}

/**
 * The one parallel/exclusive rule of dsh-tools. Jobs start in strict submission order;
 * consecutive non-exclusive jobs overlap up to `maxParallel`; an exclusive job waits until
 * every running job has finished, runs alone, and nothing submitted after it starts before it
 * finishes. The scheduler runs nothing itself: it hands each job to `start` when its turn
 * comes, and the caller reports the job's end through {@link CallScheduler.finish}.
 *
 * `executeBatch` (a model turn) and the Code Mode bridge (one `run_code` run) are two
 * configurations of it: the batch submits calls in model order and keeps policy and
 * publication in that order around it; the bridge submits binding calls as they arrive.
 */
export class CallScheduler<J extends ScheduledJob> {
  readonly #queue: J[] = []
  #head = 0
  #running = 0
  #exclusiveRunning = false
  #closed = false
  #onIdle: (() => void) | undefined = undefined
  readonly #maxParallel: number
  readonly #start: (job: J) => void

  /**
   * @param maxParallel — how many jobs may run at once (an integer ≥ 1; 1 runs them one by one).
   * @param start — begins a job; the caller must report its end through {@link finish}.
   */
  constructor(maxParallel: number, start: (job: J) => void) {
    if (!Number.isInteger(maxParallel) || maxParallel < 1) {
      throw new RangeError('CallScheduler: `maxParallel` must be an integer ≥ 1')
    }
    this.#maxParallel = maxParallel
    this.#start = start
  }

  /** Jobs running right now. */
  get active(): number {
    return this.#running
  }

  /** Whether `job`, submitted now, would start at once (nothing queued ahead of it, a slot free). */
  wouldStart(job: J): boolean {
    if (this.#closed || this.#exclusiveRunning || this.#head < this.#queue.length) return false
    return job.exclusive ? this.#running === 0 : this.#running < this.#maxParallel
  }

  /** Queue a job; it starts as soon as the rules allow (synchronously, when it can). Throws once closed. */
  submit(job: J): void {
    if (this.#closed) throw new Error('the call scheduler is closed')
    this.#queue.push(job)
    this.#pump()
  }

  /** Report that a started job has ended; the next queued jobs start if the rules now allow. */
  finish(job: J): void {
    this.#running--
    if (job.exclusive) this.#exclusiveRunning = false
    if (!this.#closed) this.#pump()
    const onIdle = this.#onIdle
    if (this.#running === 0 && onIdle !== undefined) {
      this.#onIdle = undefined
      onIdle()
    }
  }

  /**
   * Start nothing more. Returns the queued jobs that never started, in submission order, for the
   * caller to settle. Running jobs keep running; await {@link idle} for them.
   */
  close(): J[] {
    this.#closed = true
    const abandoned = this.#queue.slice(this.#head)
    this.#queue.length = 0
    this.#head = 0
    return abandoned
  }

  /** Resolves once no started job is still running. */
  idle(): Promise<void> {
    if (this.#running === 0) return Promise.resolve()
    return new Promise((resolve) => {
      const previous = this.#onIdle
      this.#onIdle = () => {
        previous?.()
        resolve()
      }
    })
  }

  #pump(): void {
    const queue = this.#queue
    while (this.#head < queue.length && !this.#closed && !this.#exclusiveRunning) {
      const job = queue[this.#head]!
      if (job.exclusive ? this.#running > 0 : this.#running >= this.#maxParallel) return
      this.#head++
      // Reset the array once drained, so a long run does not keep every job it ever queued.
      if (this.#head === queue.length) {
        queue.length = 0
        this.#head = 0
      }
      this.#running++
      if (job.exclusive) this.#exclusiveRunning = true
      this.#start(job)
    }
  }
}

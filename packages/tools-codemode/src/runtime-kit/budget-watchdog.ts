/**
 * The time budgets of a run. `maxWallMs` is a plain timer. `computeMs` is measured busy time:
 * the run thread's event-loop utilisation, read from the host, counts time the thread spends
 * running (a hot loop, an interpreter, message handling) but not time it waits idle for a tool
 * call. Because busy time grows no faster than wall time, the next check is due no sooner than
 * the budget left, so a waiting program costs almost no checks.
 */

/** Event-loop utilisation as `Worker.performance.eventLoopUtilization()` reports it. */
export interface LoopUtilization {
  readonly idle: number
  readonly active: number
  readonly utilization: number
}

/** Anything whose busy time can be read from the host: a `Worker`, or a child-process stand-in. */
export interface BusyTimeSource {
  readonly performance: { eventLoopUtilization(base?: LoopUtilization): LoopUtilization }
}

/** The budget fields the watchdog reads, in milliseconds. */
export interface RunBudget {
  readonly computeMs: number
  readonly maxWallMs: number
}

/**
 * Start both budgets. `onExceeded` is called at most once, with the message of the budget that
 * ran out (`the run exceeded maxWallMs (N ms)` or `the run exceeded computeMs (N ms of busy
 * time)`). Returns a stop function; nothing fires after it.
 */
export function startBudgetWatchdog(
  source: BusyTimeSource,
  budget: RunBudget,
  onExceeded: (message: string) => void,
): () => void {
  let stopped = false
  let computeTimer: ReturnType<typeof setTimeout> | undefined
  const baseline = source.performance.eventLoopUtilization()
  const stop = (): void => {
    stopped = true
    clearTimeout(wallTimer)
    clearTimeout(computeTimer)
  }
  const exceed = (message: string): void => {
    if (stopped) return
    stop()
    onExceeded(message)
  }
  const wallTimer = setTimeout(
    () => exceed(`the run exceeded maxWallMs (${budget.maxWallMs} ms)`),
    budget.maxWallMs,
  )
  const check = (): void => {
    if (stopped) return
    const busy = source.performance.eventLoopUtilization(baseline).active
    const left = budget.computeMs - busy
    if (left <= 0) {
      exceed(`the run exceeded computeMs (${budget.computeMs} ms of busy time)`)
      return
    }
    computeTimer = setTimeout(check, Math.max(1, Math.ceil(left)))
  }
  computeTimer = setTimeout(check, budget.computeMs)
  return stop
}

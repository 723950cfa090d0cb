/**
 * The time budgets of a run. `maxWallMs` is a plain timer. `computeMs` is measured busy time:
 * the worker's event-loop utilisation, read from the host thread, counts time the worker spends
 * running (a hot loop, a microtask storm, a blocked `Atomics.wait`) but not time it waits idle
 * for a tool call. Because busy time grows no faster than wall time, the next check is due no
 * sooner than the budget left, so a waiting program costs almost no checks.
 */
import type { RunWorker } from '../pool/worker-handle'

/** The budget fields the watchdog reads. */
export interface BudgetConfig {
  readonly computeMs: number
  readonly maxWallMs: number
}

/** Start both budgets; `onExceeded` is called at most once. Returns a stop function. */
export function startBudgetWatchdog(
  worker: RunWorker,
  budget: BudgetConfig,
  onExceeded: (message: string) => void,
): () => void {
  let stopped = false
  let computeTimer: NodeJS.Timeout | undefined
  const baseline = worker.performance.eventLoopUtilization()
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
    const busy = worker.performance.eventLoopUtilization(baseline).active
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

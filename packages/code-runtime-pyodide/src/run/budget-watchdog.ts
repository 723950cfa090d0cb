/**
 * The time budgets of a run. `maxWallMs` is a plain timer. `computeMs` is measured busy time:
 * the worker's event-loop utilisation, read from the host thread, counts time the worker spends
 * running (the interpreter, message handling) but not time it waits idle for a tool call.
 * Because busy time grows no faster than wall time, the next check is due no sooner than the
 * budget left. When a budget runs out the interpreter is interrupted through Pyodide's interrupt
 * buffer — it stops at the next bytecode, so no further call or line leaves it — and the
 * caller then terminates the worker, which also ends code that catches `KeyboardInterrupt`.
 */
import type { Worker } from 'node:worker_threads'

/** The budget fields the watchdog reads. */
export interface BudgetConfig {
  readonly computeMs: number
  readonly maxWallMs: number
}

/** SIGINT, as Pyodide's interrupt buffer expects it. */
const SIGINT = 2

/** Start both budgets; `onExceeded` is called at most once. Returns a stop function. */
export function startBudgetWatchdog(
  worker: Worker,
  interrupt: Int32Array,
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
    Atomics.store(interrupt, 0, SIGINT)
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

/**
 * Waiting for something (a worker's boot, a slot) that a run's signals may cut short: the wait
 * ends at the first abort, and its listeners are removed either way, so a long-lived signal (a
 * runtime's shutdown) does not collect one listener per run.
 */

/**
 * Resolve with `pending`'s value, or with `aborted` as soon as any of `signals` aborts (at once
 * if one already has). `pending` must not reject.
 */
export function raceAbort<T>(
  pending: Promise<T>,
  aborted: T,
  ...signals: readonly AbortSignal[]
): Promise<T> {
  if (signals.some((signal) => signal.aborted)) return Promise.resolve(aborted)
  return new Promise((resolve) => {
    const done = (value: T): void => {
      for (const signal of signals) signal.removeEventListener('abort', onAbort)
      resolve(value)
    }
    const onAbort = (): void => done(aborted)
    for (const signal of signals) signal.addEventListener('abort', onAbort, { once: true })
    void pending.then(done)
  })
}

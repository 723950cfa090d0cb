/** Small waiting helpers for tests that assert order with events instead of clocks. */

/** A promise with its `resolve` and `reject` outside. */
export interface Deferred<T> {
  readonly promise: Promise<T>
  readonly resolve: (value: T) => void
  readonly reject: (error: unknown) => void
}

/** A deferred promise. */
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

/**
 * Wait until `predicate` holds, yielding one event-loop turn (`setImmediate`) between checks;
 * rejects after `limit` turns, so a broken test fails instead of hanging.
 */
export async function until(predicate: () => boolean, limit = 2000): Promise<void> {
  for (let i = 0; i < limit && !predicate(); i++) await new Promise((resolve) => setImmediate(resolve))
  if (!predicate()) throw new Error('condition never held')
}

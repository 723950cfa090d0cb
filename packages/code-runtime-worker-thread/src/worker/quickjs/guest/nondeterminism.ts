/**
 * Recorded and replayed nondeterminism (SPEC §13.3): the program's clock and random reads —
 * `Date.now()`, `new Date()` and `Date()` without arguments, `Math.random()`, and
 * `performance.now()` / `crypto.getRandomValues()` where the engine has them — go through one
 * read function. A resumed run answers its first reads from the suspended run's, in order;
 * every further read is kept and handed to the host before the program's next binding call
 * leaves the engine, so the host's ledger holds every read that could have shaped a call.
 *
 * A read is `[kind, value]`: `d` a clock (ms), `r` a random number, `p` a monotonic clock,
 * `c` random bytes (an array of byte values).
 */
import { descriptor, intrinsics as I } from './intrinsics'

type Read = [string, unknown]

/**
 * Reads a run records at most. Past it reads stay live (and unrecorded): a resumed run that
 * reads more than this may diverge, which the ledger's argument checks then report.
 */
export const MAX_RECORDED_READS = 100_000

/** The reads a run records, and how it hands them over. */
export interface ReadJournal {
  /** Hand the reads made since the last flush to the host (JSON text), if any. */
  flush(): void
}

const G = globalThis as unknown as Record<string, unknown>

/**
 * Install the recording wrappers. `replayJson` is the JSON text of the reads to answer first
 * (`''` for none); `send` gets the JSON text of new reads.
 */
export function installReads(replayJson: string, send: (json: string) => void): ReadJournal {
  let replay: unknown[] = []
  if (replayJson !== '') {
    try {
      const parsed = I.JSONParse(replayJson)
      if (I.isArray(parsed)) replay = parsed as unknown[]
    } catch {}
  }
  let next = 0
  let recorded = replay.length
  let fresh: Read[] = []
  const read = <T>(kind: string, live: () => T): T => {
    if (next < replay.length) {
      const entry = replay[next] as Read
      if (I.isArray(entry) && entry[0] === kind) {
        next++
        return entry[1] as T
      }
      // The program reads in another order than the run it resumes: the rest is live, and the
      // ledger's argument checks tell whether that changed a call.
      next = replay.length
    }
    const value = live()
    if (recorded < MAX_RECORDED_READS) {
      recorded++
      fresh[fresh.length] = [kind, value]
    }
    return value
  }

  const DateNow = I.DateNow
  const OriginalDate = I.Date
  const now = { now: () => read('d', () => I.apply(DateNow, OriginalDate, []) as number) }.now
  I.defineProperty(OriginalDate, 'now', descriptor(now, true, false))
  const handler = I.create(null) as ProxyHandler<DateConstructor>
  handler.construct = (target, args, newTarget) =>
    I.construct(target, args.length === 0 ? [now()] : args, newTarget) as object
  handler.apply = (target) => I.apply(I.dateToString, I.construct(target, [now()]), []) as never
  I.defineProperty(G, 'Date', descriptor(new I.Proxy(OriginalDate, handler), true, false))

  const MathRandom = I.MathRandom
  const random = { random: () => read('r', () => I.apply(MathRandom, I.Math, []) as number) }.random
  I.defineProperty(I.Math, 'random', descriptor(random, true, false))

  const performance = G['performance'] as { now?: () => number } | undefined
  if (performance !== undefined && typeof performance.now === 'function') {
    const live = performance.now
    const perfNow = { now: () => read('p', () => I.apply(live, performance, []) as number) }.now
    I.defineProperty(performance, 'now', descriptor(perfNow, true, false))
  }
  const crypto = G['crypto'] as { getRandomValues?: (array: unknown) => unknown } | undefined
  if (crypto !== undefined && typeof crypto.getRandomValues === 'function') {
    const live = crypto.getRandomValues
    const getRandomValues = {
      getRandomValues: (array: Uint8Array) => {
        const bytes = read('c', () => {
          I.apply(live, crypto, [array])
          return I.arrayFrom(new I.Uint8Array(array.buffer, array.byteOffset, array.byteLength))
        }) as number[]
        const view = new I.Uint8Array(array.buffer, array.byteOffset, array.byteLength)
        for (let i = 0; i < view.length && i < bytes.length; i++) view[i] = bytes[i]!
        return array
      },
    }.getRandomValues
    I.defineProperty(crypto, 'getRandomValues', descriptor(getRandomValues, true, false))
  }

  return {
    flush() {
      if (fresh.length === 0) return
      const batch = fresh
      fresh = []
      send(I.JSONStringify(batch))
    },
  }
}

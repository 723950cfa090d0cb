/**
 * Signals that follow other signals without piling listeners onto them. Many concurrent calls
 * share one caller signal (an agent turn, a Code Mode run); giving each its own listener on it
 * trips Node's `MaxListenersExceededWarning` past ten, and `AbortSignal.any` keeps every
 * dependant registered on the source until garbage collection (and costs tens of µs per call
 * once many accumulate). Here each source carries at most one listener, shared by all its
 * followers, and a follower leaves the moment it is disposed.
 */

/** A signal linked to sources: it aborts when the first of them aborts, with that reason. */
export interface LinkedSignal {
  /** Aborts with the first source's reason; never aborts once disposed. */
  readonly signal: AbortSignal
  /** Detach from every source (the last follower of a source removes its listener). Idempotent. */
  dispose(): void
}

type Follower = (reason: unknown) => void

/** Per source: its followers and the one listener that fans its abort out to them. */
interface Fanout {
  readonly followers: Set<Follower>
  readonly listener: () => void
}

const fanouts = new WeakMap<AbortSignal, Fanout>()

function follow(source: AbortSignal, follower: Follower): () => void {
  let fanout = fanouts.get(source)
  if (fanout === undefined) {
    const followers = new Set<Follower>()
    const listener = (): void => {
      fanouts.delete(source)
      for (const each of [...followers]) each(source.reason)
      followers.clear()
    }
    fanout = { followers, listener }
    fanouts.set(source, fanout)
    source.addEventListener('abort', listener, { once: true })
  }
  const entry = fanout
  entry.followers.add(follower)
  return () => {
    if (!entry.followers.delete(follower) || entry.followers.size > 0) return
    if (fanouts.get(source) === entry) fanouts.delete(source)
    source.removeEventListener('abort', entry.listener)
  }
}

const detached: LinkedSignal['dispose'] = () => {}

/**
 * Link a fresh signal to `sources` (duplicates are ignored). If one is already aborted, the
 * result is aborted at once with its reason and nothing is attached. Otherwise each source gains
 * at most one listener in total, however many linked signals follow it, and it is removed when
 * its last follower is disposed — so call `dispose()` when the work the signal guards is over.
 *
 * @param sources — the signals to follow, in priority order for an already-aborted reason.
 */
export function linkSignals(...sources: AbortSignal[]): LinkedSignal {
  const controller = new AbortController()
  for (const source of sources) {
    if (source.aborted) {
      controller.abort(source.reason)
      return { signal: controller.signal, dispose: detached }
    }
  }
  const leaves: (() => void)[] = []
  const dispose = (): void => {
    for (const leave of leaves) leave()
    leaves.length = 0
  }
  const onAbort: Follower = (reason) => {
    dispose()
    controller.abort(reason)
  }
  for (let i = 0; i < sources.length; i++) {
    const source = sources[i]!
    if (sources.indexOf(source) === i) leaves.push(follow(source, onAbort))
  }
  return { signal: controller.signal, dispose }
}

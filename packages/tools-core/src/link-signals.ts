/**
 * Signals that follow other signals without piling listeners onto them. Many concurrent calls
 * share one caller signal (an agent turn, a Code Mode run); giving each its own listener on it
 * trips Node's `MaxListenersExceededWarning` past ten, and `AbortSignal.any` keeps every
 * dependant registered on the source until garbage collection (and costs tens of µs per call
 * once many accumulate). Here each source carries at most one listener, shared by all its
 * followers, and a follower leaves the moment it is disposed.
 *
 * Every tool body that reads `ctx.signal` links one, so the common case is kept cheap: a source
 * with a single follower (a caller signal made for one call) holds it in a field rather than a
 * `Set`, and a link is one object whose methods live on its prototype (no closures per link).
 */

/** A signal linked to sources: it aborts when the first of them aborts, with that reason. */
export interface LinkedSignal {
  /** Aborts with the first source's reason; never aborts once disposed. */
  readonly signal: AbortSignal
  /** Detach from every source (the last follower of a source removes its listener). Idempotent. */
  dispose(): void
}

/** `once`: a source aborts at most once, and its listener must not outlive that. */
const ONCE = Object.freeze({ once: true })

/** Per source: its followers and the one listener that fans its abort out to them. */
class Fanout {
  readonly source: AbortSignal
  readonly listener: () => void
  /** The first follower; `more` holds the rest (a `Set` only once two follow at the same time). */
  first: Link | undefined = undefined
  more: Set<Link> | undefined = undefined

  constructor(source: AbortSignal) {
    this.source = source
    this.listener = () => this.fire()
  }

  add(link: Link): void {
    if (this.first === undefined) this.first = link
    else (this.more ??= new Set()).add(link)
  }

  /** Remove `link`; true when nobody follows the source any more. */
  delete(link: Link): boolean {
    if (this.first === link) this.first = undefined
    else this.more?.delete(link)
    return this.first === undefined && (this.more === undefined || this.more.size === 0)
  }

  /** The next follower, or `undefined` when none is left. */
  next(): Link | undefined {
    if (this.first !== undefined) return this.first
    if (this.more === undefined || this.more.size === 0) return undefined
    return this.more.values().next().value
  }

  /**
   * The source aborted: abort each follower with its reason, one at a time, taking each out
   * first — a follower that an earlier one's abort listeners dispose is never aborted.
   */
  fire(): void {
    fanouts.delete(this.source)
    const reason = this.source.reason
    for (let link = this.next(); link !== undefined; link = this.next()) {
      this.delete(link)
      Link.abort(link, reason)
    }
  }
}

const fanouts = new WeakMap<AbortSignal, Fanout>()

/** Follow `source` on behalf of `link`: join its fan-out, creating (and attaching) it if needed. */
function join(source: AbortSignal, link: Link): Fanout {
  let fanout = fanouts.get(source)
  if (fanout === undefined) {
    fanout = new Fanout(source)
    fanouts.set(source, fanout)
    source.addEventListener('abort', fanout.listener, ONCE)
  }
  fanout.add(link)
  return fanout
}

/** Leave `fanout`; the last follower out removes the source's listener. */
function leave(fanout: Fanout, link: Link): void {
  if (!fanout.delete(link)) return
  if (fanouts.get(fanout.source) === fanout) fanouts.delete(fanout.source)
  fanout.source.removeEventListener('abort', fanout.listener)
}

/**
 * One linked signal: its controller and the fan-outs it has joined (one, or a list of them).
 * Only `signal` and `dispose` are its public face; a fan-out aborts it through `Link.abort`.
 */
class Link implements LinkedSignal {
  readonly #controller = new AbortController()
  #joined: Fanout | Fanout[] | undefined = undefined

  /** Follow `sources` (duplicates ignored); an already-aborted one aborts the link at once. */
  constructor(sources: readonly AbortSignal[]) {
    for (const source of sources) {
      if (source.aborted) {
        this.#controller.abort(source.reason)
        return
      }
    }
    if (sources.length === 1 || (sources.length === 2 && sources[0] === sources[1])) {
      this.#joined = join(sources[0]!, this)
    } else if (sources.length > 1) {
      const joined: Fanout[] = []
      for (let i = 0; i < sources.length; i++) {
        const source = sources[i]!
        if (sources.indexOf(source) === i) joined.push(join(source, this))
      }
      this.#joined = joined
    }
  }

  get signal(): AbortSignal {
    return this.#controller.signal
  }

  dispose(): void {
    const joined = this.#joined
    if (joined === undefined) return
    this.#joined = undefined
    if (!Array.isArray(joined)) leave(joined, this)
    else for (const fanout of joined) leave(fanout, this)
  }

  /** A source of `link` aborted: leave the other sources, then abort with its reason. */
  static abort(link: Link, reason: unknown): void {
    link.dispose()
    link.#controller.abort(reason)
  }
}

/**
 * Link a fresh signal to `sources` (duplicates are ignored). If one is already aborted, the
 * result is aborted at once with its reason and nothing is attached. Otherwise each source gains
 * at most one listener in total, however many linked signals follow it, and it is removed when
 * its last follower is disposed — so call `dispose()` when the work the signal guards is over.
 *
 * @param sources — the signals to follow, in priority order for an already-aborted reason.
 */
export function linkSignals(...sources: AbortSignal[]): LinkedSignal {
  return new Link(sources)
}

/**
 * Abort a linked signal now with `reason`, detaching it from its sources (internal: a disposal
 * ends a call's body signal without giving every call a controller of its own). Not exported
 * from the package.
 */
export function abortLinked(linked: LinkedSignal, reason: unknown): void {
  if (linked instanceof Link) Link.abort(linked, reason)
}

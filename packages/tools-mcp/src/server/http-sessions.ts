import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'

/** One live MCP session of an HTTP endpoint, as the session table sees it. */
export interface HttpSession {
  readonly transport: StreamableHTTPServerTransport
  /** The client that created it (see `clientOf`); only it may use the session. */
  readonly owner: string
  /** HTTP requests of this session still open (a call being answered, a GET stream). */
  active: number
  /** When the session last started or finished a request (ms, `Date.now()`). */
  lastUsed: number
  /** Ends the session: its SDK server closed (calls in flight aborted), listeners removed. */
  close(): Promise<void>
}

/** The bounds of a {@link HttpSessions} table. */
export interface HttpSessionLimits {
  readonly maxSessions: number
  readonly maxSessionsPerClient: number
  readonly idleTimeoutMs: number
}

/**
 * The sessions of one endpoint, with a slot for each session being created, so concurrent
 * `initialize` requests cannot pass the limits together. A full table refuses new sessions
 * (never evicts one: a live session belongs to a client that may still use it); a session with
 * no open request for `idleTimeoutMs` is closed by a periodic sweep, which is what frees the
 * sessions of clients that died or never said goodbye (DELETE).
 */
export class HttpSessions {
  readonly #byId = new Map<string, HttpSession>()
  /** Sessions and reserved slots per client. */
  readonly #perClient = new Map<string, number>()
  #total = 0
  readonly #limits: HttpSessionLimits
  readonly #sweep: NodeJS.Timeout

  constructor(limits: HttpSessionLimits) {
    this.#limits = limits
    // Often enough that a session outlives its idle time by at most a quarter of it (≤ 30 s).
    const period = Math.min(30_000, Math.max(10, Math.floor(limits.idleTimeoutMs / 4)))
    this.#sweep = setInterval(() => this.#closeIdle(Date.now()), period)
    this.#sweep.unref()
  }

  /**
   * A slot for a new session of `owner`, or the HTTP status and message refusing it (429: this
   * client is at its limit; 503: the endpoint is). Given back by {@link release}.
   */
  reserve(owner: string): { readonly status: 429 | 503; readonly message: string } | undefined {
    const mine = this.#perClient.get(owner) ?? 0
    if (mine >= this.#limits.maxSessionsPerClient) {
      const message = `this client already has ${mine} MCP sessions (maxSessionsPerClient): end one with DELETE or let it expire`
      return { status: 429, message }
    }
    if (this.#total >= this.#limits.maxSessions)
      return {
        status: 503,
        message: `the server has ${this.#total} MCP sessions (maxSessions): try again later`,
      }
    this.#perClient.set(owner, mine + 1)
    this.#total++
    return undefined
  }

  /** Give back a slot (a session that was never made, or one that ended). */
  release(owner: string): void {
    const mine = (this.#perClient.get(owner) ?? 1) - 1
    if (mine <= 0) this.#perClient.delete(owner)
    else this.#perClient.set(owner, mine)
    this.#total--
  }

  add(id: string, session: HttpSession): void {
    this.#byId.set(id, session)
  }

  get(id: string): HttpSession | undefined {
    return this.#byId.get(id)
  }

  delete(id: string): void {
    this.#byId.delete(id)
  }

  get size(): number {
    return this.#byId.size
  }

  /** Stop the sweep (the endpoint is closing). */
  stop(): void {
    clearInterval(this.#sweep)
  }

  #closeIdle(now: number): void {
    for (const session of this.#byId.values()) {
      if (session.active === 0 && now - session.lastUsed >= this.#limits.idleTimeoutMs) void session.close()
    }
  }
}

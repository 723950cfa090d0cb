import { ProcessTree } from '@dsh/process-tree'
import { type JsonValue, ToolAbortedError } from '@dsh/tools-core'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import {
  type CallToolResult,
  CallToolResultSchema,
  ErrorCode,
  McpError,
  type Progress,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js'
import type { McpTransportConfig } from '../config'
import { McpServerError } from '../errors'
import type { McpMessageLimits } from '../message-limits'
import { gateServerMessages } from './gate-server-messages'
import { keepProgressOrder } from './keep-progress-order'
import { terminateHttpSession } from './terminate-http-session'

/**
 * How much later than `timeoutMs` a `tools/call` answer is given up on (see `callTool`): enough
 * for the timeout policy's deadline to win the tie even when the two restart on progress in
 * different callbacks of a loaded event loop (1 ms lost that race under load).
 */
const TIE_BREAK_MS = 50

/** The SDK's Streamable HTTP transport after its last attempt to resume a dropped stream. */
const GAVE_UP_RESUMING = /^Maximum reconnection attempts \(\d+\) exceeded/

/** How much of a child's stderr a failure message quotes. */
export const STDERR_TAIL_CHARS = 2048

interface Session {
  readonly client: Client
  readonly transport: Transport
}

/** What a {@link ServerConnection} needs besides the transport. */
export interface ServerConnectionOptions {
  readonly server: string
  readonly transport: McpTransportConfig
  readonly timeoutMs: number | undefined
  /** Bounds on every message the server sends (checked before anything else reads it). */
  readonly limits: McpMessageLimits
  /** A problem worked around (a server message past the limits). */
  warn(message: string): void
  /** Called on `notifications/tools/list_changed`. */
  onToolsChanged(): void
  /**
   * Called when a session other than the first is up (after a crash, hang or disconnect): the
   * restarted server may list other tools. Calls waiting for the session wait for this too.
   */
  onReconnect(): Promise<void>
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/**
 * One MCP server as the plugin sees it: a lazily (re)connected SDK `Client` session, the child's
 * stderr tail, and the mapping of transport-level failures to {@link McpServerError}. A crash
 * or hang ends the session; the next use reconnects. `close()` ends it for good.
 */
export class ServerConnection {
  readonly server: string
  /** The configured per-request deadline, ms (also each tool's declared `timeoutMs`). */
  readonly timeoutMs: number | undefined
  #options: ServerConnectionOptions
  #session: Promise<Session> | undefined
  #live: Session | undefined
  #stderr = ''
  /**
   * The live session's first transport error since its last answered call: why a connection
   * closed (an oversized message, …), not the noise that follows it or a stray log line before.
   */
  #transportError: string | undefined
  #closed = false
  #inFlight = 0
  #sessions = 0
  #relisting: Promise<void> | undefined

  constructor(options: ServerConnectionOptions) {
    this.server = options.server
    this.timeoutMs = options.timeoutMs
    this.#options = options
  }

  /** The SDK client of the live session, connecting first when there is none. */
  async client(): Promise<Client> {
    if (this.#closed) throw this.#disposed()
    this.#session ??= this.#connect()
    const pending = this.#session
    try {
      return (await pending).client
    } catch (error) {
      if (this.#session === pending) this.#session = undefined
      throw error
    }
  }

  /**
   * The SDK client to send a call on: the live session's, synchronously (the common case costs
   * no `await`), or a promise that connects first and, after a reconnect, waits for the re-list
   * (`onReconnect`), so the call sees the restarted server's tool set.
   */
  ready(): Client | Promise<Client> {
    return this.#live?.client ?? this.#reconnect()
  }

  async #reconnect(): Promise<Client> {
    const client = await this.client()
    await this.#relisting
    return client
  }

  /** Why a call ends when the plugin is disposed under it: the caller's world went away, not the server. */
  #disposed(cause?: unknown): ToolAbortedError {
    return new ToolAbortedError(
      `MCP server "${this.server}": the call was cut off because the plugin was disposed`,
      cause === undefined ? undefined : { cause },
    )
  }

  /**
   * `tools/call` on `client` (from {@link ready}) with cancellation, the deadline and, when
   * `onprogress` is given or a deadline is set, a progress token (progress restarts the
   * deadline, but never past `timeoutMs` in all); the answer is passed through `convert` (which
   * may throw). Transport failures end the session; an abort, or the plugin's disposal, is
   * `ABORTED`.
   */
  callTool<T>(
    client: Client,
    name: string,
    args: JsonValue,
    signal: AbortSignal,
    onprogress: ((progress: Progress) => void) | undefined,
    convert: (result: CallToolResult) => T,
  ): Promise<T> {
    const session = this.#session
    const timeout = this.timeoutMs
    const options: RequestOptions = { signal }
    // The tools declare the same `timeoutMs`: a little more here lets the timeout policy's
    // deadline (TOOL_TIMEOUT, the session kept) win the tie, also after both restart on progress
    // (the SDK restarts its own first); without the policy this is the hang deadline.
    if (timeout !== undefined) options.timeout = timeout + TIE_BREAK_MS
    // A token makes the server report progress, which costs both sides per call: asked for only
    // when someone consumes it (an observer of the call's progress, or the deadline it restarts).
    const progress = onprogress ?? (timeout === undefined ? undefined : ignoreProgress)
    if (progress !== undefined) {
      options.onprogress = progress
      options.resetTimeoutOnProgress = true
    }
    // A total bound whatever progress arrives: a server reporting progress forever is hung too.
    if (timeout !== undefined) options.maxTotalTimeout = timeout + TIE_BREAK_MS
    this.#inFlight++
    // `request` rather than `Client.callTool`: the latter only adds checks fed by the SDK's own
    // `listTools()` (task-only tools, output validators), which this plugin never calls (it
    // lists raw pages and validates per tool), and one more async hop per call.
    return client
      .request(
        { method: 'tools/call', params: { name, arguments: args as Record<string, unknown> } },
        CallToolResultSchema,
        options,
      )
      .then(
        (result) => {
          this.#inFlight--
          this.#transportError = undefined
          // Converted in the same reaction: one promise per call fewer than a second `then`.
          return convert(result as CallToolResult)
        },
        async (error: unknown) => {
          this.#inFlight--
          // Disposal closed the session under the call: the caller's doing, not the server's.
          if (this.#closed && !signal.aborted) throw this.#disposed(error)
          // The SDK has sent notifications/cancelled; an abort is ABORTED, whatever it rejected with.
          if (signal.aborted)
            throw new ToolAbortedError(`MCP tools/call "${name}" on server "${this.server}" cancelled`, {
              cause: error,
            })
          throw await this.#failure(`tools/call "${name}"`, error, session)
        },
      )
  }

  /** Options for every other request: the configured deadline. */
  get requestOptions(): { timeout?: number } {
    return this.#options.timeoutMs === undefined ? {} : { timeout: this.#options.timeoutMs }
  }

  /** Wrap `error` from a request as a failure naming the server (and ending the session when it is dead). */
  async requestFailure(what: string, error: unknown): Promise<McpServerError> {
    return this.#failure(what, error, this.#session)
  }

  /** End the session and, for a child process, make sure it exits. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true
    await this.#end(this.#session, this.#inFlight > 0, true)
  }

  async #failure(
    what: string,
    error: unknown,
    session: Promise<Session> | undefined,
  ): Promise<McpServerError> {
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      await this.#end(session, true)
      return this.#error(
        `MCP server "${this.server}" did not answer ${what} within ${this.#options.timeoutMs ?? 60_000}ms`,
        error,
      )
    }
    // An HTTP server refusing this one request for its size or rate is alive and keeps the
    // session. Other statuses end it: 404 is the spec's "session gone", and servers built on the
    // SDK's examples answer an unknown session with 400 (a DELETE frees it if it still exists).
    const status = error instanceof StreamableHTTPError ? error.code : undefined
    if (status === 413 || status === 429) {
      return this.#error(
        `MCP server "${this.server}" refused ${what} (HTTP ${status}): ${messageOf(error)}`,
        error,
      )
    }
    if (error instanceof McpError && error.code !== ErrorCode.ConnectionClosed) {
      return this.#error(`MCP server "${this.server}" failed ${what}: ${error.message}`, error)
    }
    const cause = this.#transportError
    await this.#end(session, true)
    return this.#error(
      `MCP server "${this.server}" crashed or disconnected during ${what}: ${messageOf(error)}${cause === undefined ? '' : ` (transport error: ${cause})`}`,
      error,
    )
  }

  #error(message: string, cause: unknown): McpServerError {
    const tail = this.#stderr.trim()
    return new McpServerError(this.server, tail ? `${message}\nstderr (tail):\n${tail}` : message, { cause })
  }

  /**
   * End `session`: `force` kills a child at once; `leaving` (the plugin is disposed) also ends an
   * HTTP session on the server. Failure paths do not: the server is gone, wedged or has already
   * forgotten the session, and a DELETE would only delay the failure.
   */
  async #end(session: Promise<Session> | undefined, force: boolean, leaving = false): Promise<void> {
    if (session === undefined) return
    if (this.#session === session) this.#session = undefined
    const live = await session.catch(() => undefined)
    if (live === undefined) return
    if (this.#live === live) this.#live = undefined
    // The transport's pid is null once the child has exited: never signal a recycled pid.
    const pid = (live.transport as { pid?: number | null }).pid
    // The child may be a launcher (`sh -c`, `npx`) whose server outlives it when wedged (it
    // never reads the EOF of its closed stdin): its descendants are recorded while it runs and
    // killed once the SDK's close (EOF, SIGTERM, SIGKILL to the child) is done — or at once when
    // forced: a wedged server holds the pipes open, and the SDK's close would wait on them (2 s,
    // then 2 s more after a SIGTERM to the dead launcher) while the server spins.
    const descendants = typeof pid === 'number' ? new ProcessTree(pid).collect() : undefined
    if (force && typeof pid === 'number') {
      killQuietly(pid)
      descendants?.signal('SIGKILL')
    }
    if (leaving && live.transport instanceof StreamableHTTPClientTransport)
      await terminateHttpSession(live.transport)
    await live.client.close().catch(() => undefined)
    descendants?.signal('SIGKILL')
  }

  async #connect(): Promise<Session> {
    this.#stderr = ''
    this.#transportError = undefined
    const transport = await this.#createTransport()
    const gate = gateServerMessages(transport, this.#options.limits, (message) => this.#options.warn(message))
    const client = new Client({ name: 'dsh-tools-mcp', version: '0.1.0' }, { capabilities: {} })
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.#options.onToolsChanged())
    try {
      // Starting a server (npx, a cold interpreter) may take longer than a call: the SDK's default deadline.
      await client.connect(transport)
    } catch (error) {
      const pid = (transport as { pid?: number | null }).pid ?? undefined
      const descendants = pid === undefined ? undefined : new ProcessTree(pid).collect()
      if (pid !== undefined) killQuietly(pid)
      descendants?.signal('SIGKILL')
      await client.close().catch(() => undefined)
      descendants?.signal('SIGKILL')
      if (this.#closed) throw this.#disposed(error)
      throw this.#error(`could not connect to MCP server "${this.server}": ${messageOf(error)}`, error)
    }
    gate.within(keepProgressOrder)
    const session: Session = { client, transport }
    client.onclose = () => {
      // The server went away on its own (crash, exit, HTTP session end): reconnect on next use.
      if (this.#live === session) {
        this.#live = undefined
        this.#session = undefined
      }
    }
    client.onerror = (error) => {
      if (this.#live === session) this.#transportError ??= messageOf(error)
      // The HTTP transport gave up resuming a dropped response stream (the server went away
      // mid-call): the answers due on it never come, and the SDK says so only in this message.
      // Ending the session fails those calls now instead of at their deadline.
      if (this.#live === session && GAVE_UP_RESUMING.test(messageOf(error)))
        void this.#end(this.#session, false)
    }
    this.#live = session
    // Not awaited here: the re-list itself needs this session.
    if (this.#sessions++ > 0) this.#relisting = this.#options.onReconnect()
    return session
  }

  async #createTransport(): Promise<Transport> {
    const config = this.#options.transport
    if ('create' in config) return config.create()
    if ('url' in config) {
      return new StreamableHTTPClientTransport(new URL(config.url), {
        requestInit: { headers: { ...config.headers } },
      })
    }
    const params = { command: config.command, args: [...(config.args ?? [])], stderr: 'pipe' as const }
    if (config.env !== undefined) Object.assign(params, { env: { ...config.env } })
    if (config.cwd !== undefined) Object.assign(params, { cwd: config.cwd })
    const transport = new StdioClientTransport(params)
    transport.stderr?.on('data', (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS)
    })
    return transport
  }
}

function ignoreProgress(): void {
  // Progress only restarts the deadline here.
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL')
  } catch {
    // already gone
  }
}

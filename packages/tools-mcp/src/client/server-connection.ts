import { type JsonValue, ToolAbortedError } from '@dsh/tools-core'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
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
import { deliverResponsesAfterNotifications } from './responses-after-notifications'

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
  /** Called on `notifications/tools/list_changed`. */
  onToolsChanged(): void
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/**
 * One MCP server as the plugin sees it: a lazily (re)connected SDK `Client` session, the child's
 * stderr tail, and the mapping of transport-level failures to {@link McpServerError}. A crash
 * or hang ends the session; the next use reconnects. `close()` ends it for good.
 */
export class ServerConnection {
  readonly server: string
  #options: ServerConnectionOptions
  #session: Promise<Session> | undefined
  #live: Session | undefined
  #stderr = ''
  #closed = false
  #inFlight = 0

  constructor(options: ServerConnectionOptions) {
    this.server = options.server
    this.#options = options
  }

  /** The SDK client of the live session, connecting first when there is none. */
  async client(): Promise<Client> {
    if (this.#closed)
      throw new McpServerError(this.server, `MCP server "${this.server}" is disconnected (plugin disposed)`)
    this.#session ??= this.#connect()
    const pending = this.#session
    try {
      return (await pending).client
    } catch (error) {
      if (this.#session === pending) this.#session = undefined
      throw error
    }
  }

  /** `tools/call` with cancellation, progress and the deadline; transport failures end the session. */
  async callTool(
    name: string,
    args: JsonValue,
    signal: AbortSignal,
    onprogress: ((progress: Progress) => void) | undefined,
  ): Promise<CallToolResult> {
    // Fast path: a live session needs no await before the request.
    const client = this.#live?.client ?? (await this.client())
    const session = this.#session
    this.#inFlight++
    try {
      // A progress token is requested only when someone consumes progress: a configured deadline
      // (progress restarts it) or a run context that reports it (SPEC §12).
      const timeout = this.#options.timeoutMs
      const progress = onprogress ?? (timeout === undefined ? undefined : ignoreProgress)
      const options: RequestOptions = { signal }
      if (timeout !== undefined) options.timeout = timeout
      if (progress !== undefined) {
        options.onprogress = progress
        options.resetTimeoutOnProgress = true
      }
      return (await client.callTool(
        { name, arguments: args as Record<string, unknown> },
        CallToolResultSchema,
        options,
      )) as CallToolResult
    } catch (error) {
      // The SDK has sent notifications/cancelled; an abort is ABORTED, whatever the SDK rejected with.
      if (signal.aborted)
        throw new ToolAbortedError(`MCP tools/call "${name}" on server "${this.server}" cancelled`, {
          cause: error,
        })
      throw await this.#failure(`tools/call "${name}"`, error, session)
    } finally {
      this.#inFlight--
    }
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
    await this.#end(this.#session, this.#inFlight > 0)
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
    if (error instanceof McpError && error.code !== ErrorCode.ConnectionClosed) {
      return this.#error(`MCP server "${this.server}" failed ${what}: ${error.message}`, error)
    }
    await this.#end(session, true)
    return this.#error(
      `MCP server "${this.server}" crashed or disconnected during ${what}: ${messageOf(error)}`,
      error,
    )
  }

  #error(message: string, cause: unknown): McpServerError {
    const tail = this.#stderr.trim()
    return new McpServerError(this.server, tail ? `${message}\nstderr (tail):\n${tail}` : message, { cause })
  }

  async #end(session: Promise<Session> | undefined, force: boolean): Promise<void> {
    if (session === undefined) return
    if (this.#session === session) this.#session = undefined
    const live = await session.catch(() => undefined)
    if (live === undefined) return
    if (this.#live === live) this.#live = undefined
    // The transport's pid is null once the child has exited: never signal a recycled pid.
    const pid = (live.transport as { pid?: number | null }).pid
    if (force && typeof pid === 'number') killQuietly(pid)
    await live.client.close().catch(() => undefined)
  }

  async #connect(): Promise<Session> {
    this.#stderr = ''
    const transport = await this.#createTransport()
    const client = new Client({ name: 'dsh-tools-mcp', version: '0.1.0' }, { capabilities: {} })
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.#options.onToolsChanged())
    try {
      // Starting a server (npx, a cold interpreter) may take longer than a call: the SDK's default deadline.
      await client.connect(transport)
    } catch (error) {
      const pid = (transport as { pid?: number | null }).pid ?? undefined
      if (pid !== undefined) killQuietly(pid)
      await client.close().catch(() => undefined)
      throw this.#error(`could not connect to MCP server "${this.server}": ${messageOf(error)}`, error)
    }
    deliverResponsesAfterNotifications(transport)
    const session: Session = { client, transport }
    client.onclose = () => {
      // The server went away on its own (crash, exit, HTTP session end): reconnect on next use.
      if (this.#live === session) {
        this.#live = undefined
        this.#session = undefined
      }
    }
    this.#live = session
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

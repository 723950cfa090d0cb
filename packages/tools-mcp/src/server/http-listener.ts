import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import type { McpMessageLimits } from '../message-limits'
import { admitRequestText, isRequest, oversized, type RequestRefusal, requestIdOf } from './admit-request'
import { createMcpServer, type ServedTools } from './create-mcp-server'
import {
  authorized,
  checkAuth,
  clientOf,
  isLoopbackHost,
  type McpServeAuth,
  originAllowed,
} from './http-access'
import { type HttpSession, HttpSessions } from './http-sessions'
import { readBody } from './read-body'

/** `serveMcp`'s Streamable HTTP transport: where it listens, who may use it, how many sessions. */
export interface McpHttpServeOptions {
  /** The TCP port (`0` picks a free one). */
  readonly port: number
  /** The interface to bind (default `127.0.0.1`). Any other than loopback requires `auth`. */
  readonly host?: string
  /** Who may connect; default none (loopback only). Required beyond loopback. */
  readonly auth?: McpServeAuth
  /** Browser origins allowed (`Origin` header); default: loopback origins only. Others get 403. */
  readonly allowedOrigins?: readonly string[]
  /** Live sessions at once, all clients together (default 64); past it a new session is refused (503). */
  readonly maxSessions?: number
  /** Live sessions of one client (default 16); past it its new session is refused (429). */
  readonly maxSessionsPerClient?: number
  /** A session with no open request for this long is closed (default 300 000 ms). */
  readonly idleTimeoutMs?: number
}

/** A running Streamable HTTP endpoint. */
export interface HttpListener {
  readonly url: string
  close(): Promise<void>
}

/** Default live sessions per endpoint: each holds an SDK server and runtime listeners. */
export const MAX_HTTP_SESSIONS = 64
/** Default live sessions per client. */
export const MAX_HTTP_SESSIONS_PER_CLIENT = 16
/** Default idle time after which a session is closed. */
export const HTTP_SESSION_IDLE_MS = 300_000

function reply(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }))
}

function refuse(res: ServerResponse, refused: RequestRefusal): void {
  // A body left unread (too large) is not drained: the connection is closed after the answer.
  res.writeHead(refused.status, { 'content-type': 'application/json', connection: 'close' })
  res.end(JSON.stringify(refused.body))
}

const positive = (value: number | undefined, fallback: number, key: string): number => {
  const chosen = value ?? fallback
  if (!Number.isInteger(chosen) || chosen <= 0)
    throw new RangeError(`serveMcp: ${key} must be a positive integer, got ${String(value)}`)
  return chosen
}

/**
 * Serve MCP over Streamable HTTP at `/mcp`: `Origin` and `auth` checked on every request, the
 * body bounded and measured before the SDK parses it, one SDK server per session owned by the
 * client that made it, calls aborted when their HTTP response closes early, idle sessions closed.
 */
export async function listenHttp(
  served: ServedTools,
  options: McpHttpServeOptions,
  limits: McpMessageLimits,
): Promise<HttpListener> {
  const host = options.host ?? '127.0.0.1'
  const { auth, allowedOrigins } = options
  checkAuth(auth)
  if (!isLoopbackHost(host) && auth === undefined)
    throw new TypeError(
      `serveMcp: listening on ${host} (beyond loopback) requires auth ({ token } or { verify })`,
    )
  const sessions = new HttpSessions({
    maxSessions: positive(options.maxSessions, MAX_HTTP_SESSIONS, 'maxSessions'),
    maxSessionsPerClient: positive(
      options.maxSessionsPerClient,
      MAX_HTTP_SESSIONS_PER_CLIENT,
      'maxSessionsPerClient',
    ),
    idleTimeoutMs: positive(options.idleTimeoutMs, HTTP_SESSION_IDLE_MS, 'idleTimeoutMs'),
  })
  // Every session not yet closed, also one whose first request is still being answered.
  const open = new Set<HttpSession>()
  let allowedHosts: string[] | undefined

  const start = async (req: IncomingMessage, res: ServerResponse, owner: string, body: unknown) => {
    const { server, dispose } = createMcpServer(served)
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // Beyond loopback the names a client may use are not known here: `auth` and `Origin` guard.
      enableDnsRebindingProtection: allowedHosts !== undefined,
      ...(allowedHosts === undefined ? {} : { allowedHosts }),
      onsessioninitialized: (id) => sessions.add(id, session),
    })
    let closed: Promise<void> | undefined
    const session: HttpSession = {
      owner,
      transport,
      active: 0,
      lastUsed: Date.now(),
      close() {
        closed ??= (async () => {
          open.delete(session)
          sessions.release(owner)
          if (transport.sessionId !== undefined) sessions.delete(transport.sessionId)
          dispose()
          // Closing the SDK server aborts every call of the session still in flight.
          await server.close().catch(() => undefined)
        })()
        return closed
      },
    }
    open.add(session)
    // Ended by the client (DELETE) or the SDK.
    transport.onclose = () => void session.close()
    try {
      await server.connect(transport)
      await serve(session, req, res, body)
    } finally {
      // Not an initialize (another method, a batch the SDK refused): no session was made, and
      // nothing else would ever close this server or remove its listeners.
      if (transport.sessionId === undefined) await session.close()
    }
  }

  /** One request of a session; a call whose response closes before it is answered is cancelled. */
  const serve = async (session: HttpSession, req: IncomingMessage, res: ServerResponse, body: unknown) => {
    const { transport } = session
    session.active++
    session.lastUsed = Date.now()
    const ids = (Array.isArray(body) ? body : [body]).filter(isRequest).map(requestIdOf)
    res.once('close', () => {
      session.active--
      session.lastUsed = Date.now()
      if (res.writableFinished) return
      // The client went away (connection closed) before its answers: the SDK would run the
      // calls to their end. A cancellation as the client itself would send it aborts them.
      for (const requestId of ids) {
        transport.onmessage?.({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: requestId!, reason: 'the HTTP client went away' },
        })
      }
    })
    await transport.handleRequest(req, res, body)
  }

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp')
      return reply(res, 404, 'not found: use /mcp')
    if (!originAllowed(req, allowedOrigins)) return reply(res, 403, 'forbidden: Origin not allowed')
    if (!(await authorized(req, auth)))
      return reply(res, 401, 'unauthorized', { 'www-authenticate': 'Bearer realm="mcp"' })
    const owner = clientOf(req, auth)
    let body: unknown
    if (req.method === 'POST') {
      const text = await readBody(req, limits.maxBytes)
      if (text === undefined) return refuse(res, oversized(limits))
      const admitted = admitRequestText(text, limits)
      if ('refused' in admitted) return refuse(res, admitted.refused)
      body = admitted.value
    }
    const id = req.headers['mcp-session-id']
    if (typeof id === 'string') {
      const session = sessions.get(id)
      // Another client's session is as unknown as an expired one.
      if (session === undefined || session.owner !== owner)
        return reply(res, 404, 'unknown or expired MCP session')
      return serve(session, req, res, body)
    }
    if (req.method !== 'POST') return reply(res, 400, 'a new session starts with an initialize POST')
    const full = sessions.reserve(owner)
    if (full !== undefined) return reply(res, full.status, full.message)
    return start(req, res, owner, body)
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent) reply(res, 500, error instanceof Error ? error.message : String(error))
    })
  })
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject)
    http.listen(options.port, host, () => resolve())
  })
  const bound = (http.address() as AddressInfo).port
  const shown = host.includes(':') ? `[${host}]` : host
  if (isLoopbackHost(host))
    allowedHosts = [`${shown}:${bound}`, `localhost:${bound}`, `127.0.0.1:${bound}`, `[::1]:${bound}`]
  return {
    url: `http://${shown}:${bound}/mcp`,
    async close() {
      sessions.stop()
      await Promise.all([...open].map((session) => session.close()))
      http.closeAllConnections()
      await new Promise<void>((resolve) => http.close(() => resolve()))
    },
  }
}

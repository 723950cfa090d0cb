import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { createMcpServer, type ServedTools } from './create-mcp-server'

/** A running Streamable HTTP endpoint. */
export interface HttpListener {
  readonly url: string
  close(): Promise<void>
}

interface Session {
  readonly transport: StreamableHTTPServerTransport
  close(): Promise<void>
}

/**
 * Live sessions one endpoint keeps. Each holds an SDK server and runtime listeners (its approval
 * gate runs for every tool call), and the SDK client's `close()` never ends its session: past
 * this many, the least recently used one is closed (its client gets 404 and starts a new one).
 */
export const MAX_HTTP_SESSIONS = 64

function reply(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }))
}

/**
 * Serve MCP over Streamable HTTP on `127.0.0.1:<port>` only (never another interface), with
 * DNS-rebinding protection, one SDK server per session (`Mcp-Session-Id`), at path `/mcp`.
 */
export async function listenHttp(served: ServedTools, port: number): Promise<HttpListener> {
  // By session id, in least-recently-used order (a use moves a session to the end).
  const sessions = new Map<string, Session>()
  // Every session not yet closed, also one whose first request is still being answered.
  const open = new Set<Session>()
  let allowedHosts: string[] = []
  const start = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const { server, dispose } = createMcpServer(served)
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableDnsRebindingProtection: true,
      allowedHosts,
      onsessioninitialized: (id) => {
        sessions.set(id, session)
        if (sessions.size > MAX_HTTP_SESSIONS) void sessions.values().next().value?.close()
      },
    })
    let closed: Promise<void> | undefined
    const session: Session = {
      transport,
      close() {
        closed ??= (async () => {
          open.delete(session)
          if (transport.sessionId !== undefined) sessions.delete(transport.sessionId)
          dispose()
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
      await transport.handleRequest(req, res)
    } finally {
      // Not an initialize (broken JSON, another method, a batch the SDK refused): no session
      // was made, and nothing else would ever close this server or remove its listeners.
      if (transport.sessionId === undefined) await session.close()
    }
  }
  const http = createServer((req, res) => {
    const handle = async () => {
      if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp')
        return reply(res, 404, 'not found: use /mcp')
      const id = req.headers['mcp-session-id']
      if (typeof id === 'string') {
        const session = sessions.get(id)
        if (session === undefined) return reply(res, 404, 'unknown or expired MCP session')
        sessions.delete(id)
        sessions.set(id, session)
        return session.transport.handleRequest(req, res)
      }
      if (req.method !== 'POST') return reply(res, 400, 'a new session starts with an initialize POST')
      return start(req, res)
    }
    handle().catch((error) => {
      if (!res.headersSent) reply(res, 500, error instanceof Error ? error.message : String(error))
    })
  })
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject)
    http.listen(port, '127.0.0.1', () => resolve())
  })
  const bound = (http.address() as AddressInfo).port
  allowedHosts = [`127.0.0.1:${bound}`, `localhost:${bound}`]
  return {
    url: `http://127.0.0.1:${bound}/mcp`,
    async close() {
      await Promise.all([...open].map((session) => session.close()))
      http.closeAllConnections()
      await new Promise<void>((resolve) => http.close(() => resolve()))
    },
  }
}

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

function reply(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }))
}

/**
 * Serve MCP over Streamable HTTP on `127.0.0.1:<port>` only (never another interface), with
 * DNS-rebinding protection, one SDK server per session (`Mcp-Session-Id`), at path `/mcp`.
 */
export async function listenHttp(served: ServedTools, port: number): Promise<HttpListener> {
  const sessions = new Map<string, Session>()
  let allowedHosts: string[] = []
  const open = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const { server, dispose } = createMcpServer(served)
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableDnsRebindingProtection: true,
      allowedHosts,
      onsessioninitialized: (id) => {
        sessions.set(id, session)
      },
    })
    const session: Session = {
      transport,
      close: async () => {
        dispose()
        await server.close().catch(() => undefined)
      },
    }
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId)
      dispose()
    }
    await server.connect(transport)
    await transport.handleRequest(req, res)
  }
  const http = createServer((req, res) => {
    const handle = async () => {
      if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp')
        return reply(res, 404, 'not found: use /mcp')
      const id = req.headers['mcp-session-id']
      if (typeof id === 'string') {
        const session = sessions.get(id)
        if (session === undefined) return reply(res, 404, 'unknown or expired MCP session')
        return session.transport.handleRequest(req, res)
      }
      if (req.method !== 'POST') return reply(res, 400, 'a new session starts with an initialize POST')
      return open(req, res)
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
      await Promise.all([...sessions.values()].map((session) => session.close()))
      sessions.clear()
      http.closeAllConnections()
      await new Promise<void>((resolve) => http.close(() => resolve()))
    },
  }
}

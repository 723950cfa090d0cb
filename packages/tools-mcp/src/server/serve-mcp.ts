import type { Context } from '@deepseek-ai/cordis'
import type { ScopeKey } from '@dsh/tools-core'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { gateMessages } from '../gate-messages'
import { DEFAULT_REQUEST_LIMITS, type McpMessageLimits, resolveLimits } from '../message-limits'
import { admitRequestText, asMessage, measureRequest, oversized } from './admit-request'
import { BoundedStdioServerTransport } from './bounded-stdio-transport'
import { createMcpServer } from './create-mcp-server'
import { listenHttp, type McpHttpServeOptions } from './http-listener'

/** Options of {@link serveMcp}. */
export interface ServeMcpOptions {
  /** Serve the tools this agent (scope key) sees; default: the global tools. */
  readonly agent?: ScopeKey
  /**
   * `'stdio'`: this process's stdin/stdout; `{ port, host?, auth?, … }`: Streamable HTTP at
   * `/mcp` (see {@link McpHttpServeOptions}); `{ connection }`: an SDK transport you created.
   */
  readonly transport: 'stdio' | McpHttpServeOptions | { readonly connection: Transport }
  /** The server's name and version in the MCP handshake (default `dsh-tools` / `0.1.0`). */
  readonly name?: string
  readonly version?: string
  /**
   * Bounds on each client message, checked before the SDK parses it or a call runs (default
   * 4 MiB, 100 000 nodes, depth 128); a message past one is answered with a JSON-RPC error.
   */
  readonly limits?: Partial<McpMessageLimits>
}

/** A running MCP server. */
export interface McpServeHandle {
  /** The endpoint, for the HTTP transport. */
  readonly url?: string
  /** Stop serving: sessions closed, listeners removed, the HTTP port released. */
  close(): Promise<void>
}

/**
 * Expose the tools an agent sees as an MCP server (the official SDK's `Server`): `inputSchema`,
 * `outputSchema` (non-object outputs wrapped as `{ value }`) and annotations from the
 * definitions' `annotations`. Every call runs the full pipeline (`ctx.tools.execute`); an `ask`
 * goes to the approval service, or to the client as an MCP elicitation when it supports one,
 * else it is denied. Every client message is bounded by `limits` before anything else reads it.
 *
 * @example
 * const handle = await serveMcp(ctx, { transport: { port: 0 } })
 * console.log(handle.url) // http://127.0.0.1:<port>/mcp
 * await handle.close()
 */
export async function serveMcp(ctx: Context, options: ServeMcpOptions): Promise<McpServeHandle> {
  const served = {
    ctx,
    agent: options.agent,
    info: { name: options.name ?? 'dsh-tools', version: options.version ?? '0.1.0' },
  }
  const limits = resolveLimits(options.limits, DEFAULT_REQUEST_LIMITS, 'serveMcp limits')
  const transport = options.transport
  if (typeof transport === 'object' && 'port' in transport) {
    const port = transport.port
    if (!Number.isInteger(port) || port < 0 || port > 65_535)
      throw new RangeError(`serveMcp: port must be an integer 0…65535, got ${port}`)
    return listenHttp(served, transport, limits)
  }
  const { server, dispose } = createMcpServer(served)
  if (transport === 'stdio') await server.connect(stdioTransport(limits))
  else if (typeof transport === 'object' && 'connection' in transport)
    await server.connect(gated(transport.connection, limits))
  else throw new TypeError("serveMcp: transport must be 'stdio', { port } or { connection }")
  return {
    async close() {
      dispose()
      await server.close()
    },
  }
}

/** Stdin lines bounded by `maxBytes`, each parsed and measured before the SDK sees it. */
function stdioTransport(limits: McpMessageLimits): BoundedStdioServerTransport {
  const transport: BoundedStdioServerTransport = new BoundedStdioServerTransport(
    limits.maxBytes,
    (line) => {
      const admitted = admitRequestText(line, limits)
      const message = 'refused' in admitted ? admitted.refused : asMessage(admitted.value)
      if (!('status' in message)) transport.onmessage?.(message)
      else if (message.answer) void transport.send(message.body as JSONRPCMessage)
    },
    () => void transport.send(oversized(limits).body as JSONRPCMessage),
  )
  return transport
}

/** A transport you made: its messages arrive parsed, and are measured before the SDK reads them. */
function gated(connection: Transport, limits: McpMessageLimits): Transport {
  gateMessages(connection, (message) => {
    const refused = measureRequest(message, limits, true)
    if (refused === undefined) return message
    if (refused.answer) void connection.send(refused.body as JSONRPCMessage).catch(() => undefined)
    return undefined
  })
  return connection
}

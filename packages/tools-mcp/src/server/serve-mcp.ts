import type { Context } from '@deepseek-ai/cordis'
import type { ScopeKey } from '@dsh/tools-core'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { createMcpServer } from './create-mcp-server'
import { listenHttp } from './http-listener'

/** Options of {@link serveMcp}. */
export interface ServeMcpOptions {
  /** Serve the tools this agent (scope key) sees; default: the global tools. */
  readonly agent?: ScopeKey
  /**
   * `'stdio'`: this process's stdin/stdout; `{ port }`: Streamable HTTP on `127.0.0.1:<port>/mcp`
   * (`0` picks a free port); `{ connection }`: an SDK transport you created (in-memory, …).
   */
  readonly transport: 'stdio' | { readonly port: number } | { readonly connection: Transport }
  /** The server's name and version in the MCP handshake (default `dsh-tools` / `0.1.0`). */
  readonly name?: string
  readonly version?: string
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
 * else it is denied.
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
  const transport = options.transport
  if (typeof transport === 'object' && 'port' in transport) {
    const port = transport.port
    if (!Number.isInteger(port) || port < 0 || port > 65_535)
      throw new RangeError(`serveMcp: port must be an integer 0…65535, got ${port}`)
    return listenHttp(served, port)
  }
  const { server, dispose } = createMcpServer(served)
  if (transport === 'stdio') await server.connect(new StdioServerTransport())
  else if (typeof transport === 'object' && 'connection' in transport)
    await server.connect(transport.connection)
  else throw new TypeError("serveMcp: transport must be 'stdio', { port } or { connection }")
  return {
    async close() {
      dispose()
      await server.close()
    },
  }
}

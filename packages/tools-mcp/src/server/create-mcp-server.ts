import type { Context } from '@deepseek-ai/cordis'
import type { PreToolDecision, ScopeKey, ToolExecution } from '@dsh/tools-core'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js'
import { needsWrapping, toCallToolResult, toMcpTool } from './to-mcp-tool'

/** What every MCP server session built by {@link createMcpServer} shares. */
export interface ServedTools {
  readonly ctx: Context
  readonly agent: ScopeKey | undefined
  readonly info: { readonly name: string; readonly version: string }
}

const APPROVE_SCHEMA = {
  type: 'object' as const,
  properties: { approve: { type: 'boolean' as const, title: 'Approve this tool call' } },
  required: ['approve'],
}

let sessions = 0

/**
 * One SDK `Server` (one MCP session) over the agent's visible tools. Every call runs
 * `ctx.tools.execute` (the full pipeline) with the request's abort signal; an `ask` the runtime
 * cannot route to an approval service is put to the client as an elicitation when it supports
 * elicitation (else it stays `ask`, which the runtime denies). Returns the server and a disposer
 * for its listeners.
 */
export function createMcpServer(served: ServedTools): { server: Server; dispose(): void } {
  const { ctx, agent } = served
  const server = new Server(served.info, { capabilities: { tools: { listChanged: true } } })
  const prefix = `mcp-serve-${++sessions}-`
  let calls = 0
  const pending = new Map<string, AbortSignal>()

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: ctx.tools
      .schemas(agent)
      .map((schema) => toMcpTool(schema, ctx.tools.get(schema.name, agent)?.annotations)),
  }))

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const callId = `${prefix}${++calls}`
    const name = request.params.name
    pending.set(callId, extra.signal)
    try {
      const result = await ctx.tools.execute({
        callId,
        name,
        arguments: request.params.arguments ?? {},
        signal: extra.signal,
        ...(agent === undefined ? {} : { agent }),
      })
      const definition = result.isError ? undefined : ctx.tools.get(name, agent)
      return toCallToolResult(result, definition !== undefined && needsWrapping(definition.output.schema))
    } finally {
      pending.delete(callId)
    }
  })

  // Outermost pre-execute listener: sees the final decision of every other listener.
  const offGate = ctx.on(
    'tools/pre-execute',
    async (exec: ToolExecution, next: () => Promise<PreToolDecision>): Promise<PreToolDecision> => {
      const decision = await next()
      const signal = pending.get(exec.callId)
      if (decision.kind !== 'ask' || signal === undefined || ctx.get('approval') !== undefined)
        return decision
      if (server.getClientCapabilities()?.elicitation === undefined) return decision
      try {
        const answer = await server.elicitInput(
          {
            message: `Allow the tool call \`${exec.name}\` with ${JSON.stringify(exec.arguments).slice(0, 2000)}?${decision.reason ? ` (${decision.reason})` : ''}`,
            requestedSchema: APPROVE_SCHEMA,
          },
          { signal },
        )
        if (answer.action === 'accept' && answer.content?.approve === true) return { kind: 'allow' }
        return { kind: 'deny', reason: `the MCP client did not approve the call (${answer.action})` }
      } catch (error) {
        return {
          kind: 'deny',
          reason: `approval by elicitation failed: ${error instanceof Error ? error.message : String(error)}`,
        }
      }
    },
    { prepend: true },
  )
  const offChanged = ctx.on('tools/changed', () => {
    // Before the client connected (or after it left) there is nobody to tell.
    if (server.transport === undefined) return
    server.sendToolListChanged().catch(() => undefined)
  })
  return {
    server,
    dispose() {
      offGate()
      offChanged()
    },
  }
}

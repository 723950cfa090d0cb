import type { Context } from '@deepseek-ai/cordis'
import type { PreToolDecision, ScopeKey, ToolExecution, ToolProgressUpdate } from '@dsh/tools-core'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type RequestId,
  type ServerNotification,
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
 * `tools/call` matched by method only. The SDK's `Server` checks the request itself and answers
 * a malformed one (arguments not an object, no name) with "invalid params" (-32602); registered
 * with the full schema, the protocol layer's own parse would fail first, as "internal error".
 */
const ANY_TOOLS_CALL = CallToolRequestSchema.pick({ method: true }).loose()

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
  // Calls in flight, by callId: the request's signal and id (an elicitation goes with its request).
  const pending = new Map<string, { signal: AbortSignal; requestId: RequestId }>()
  // Calls whose client asked for progress (a `progressToken`), by callId. The `tools/progress`
  // listener exists only while there are some: a listener makes every MCP tool this process
  // calls as a client request progress too (see the client's `progressObserved`).
  const reporters = new Map<string, (update: ToolProgressUpdate) => void>()
  let offProgress: (() => void) | undefined
  const report = (callId: string, reporter: (update: ToolProgressUpdate) => void): (() => void) => {
    reporters.set(callId, reporter)
    offProgress ??= ctx.on('tools/progress', (exec: ToolExecution, update: ToolProgressUpdate) =>
      reporters.get(exec.callId)?.(update),
    )
    return () => {
      reporters.delete(callId)
      if (reporters.size === 0) {
        offProgress?.()
        offProgress = undefined
      }
    }
  }

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: ctx.tools
      .schemas(agent)
      .map((schema) => toMcpTool(schema, ctx.tools.get(schema.name, agent)?.annotations)),
  }))

  server.setRequestHandler(ANY_TOOLS_CALL, async (raw, extra): Promise<CallToolResult> => {
    const request = raw as unknown as CallToolRequest
    const callId = `${prefix}${++calls}`
    const name = request.params.name
    pending.set(callId, { signal: extra.signal, requestId: extra.requestId })
    const token = request.params._meta?.progressToken
    let reports = 0
    let last: number | undefined
    // MCP requires a number, and one that does not go back: an update without one (a message)
    // repeats the last number, or counts reports while the tool never gave one.
    const stopReporting =
      token === undefined
        ? undefined
        : report(callId, (update) => {
            reports++
            last = update.progress ?? last
            const params: Record<string, unknown> = { progressToken: token, progress: last ?? reports }
            if (update.total !== undefined) params.total = update.total
            if (update.message !== undefined) params.message = update.message
            extra
              .sendNotification({ method: 'notifications/progress', params } as ServerNotification)
              .catch(() => undefined)
          })
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
      stopReporting?.()
    }
  })

  // Outermost pre-execute listener: sees the final decision of every other listener.
  const offGate = ctx.on(
    'tools/pre-execute',
    async (exec: ToolExecution, next: () => Promise<PreToolDecision>): Promise<PreToolDecision> => {
      const decision = await next()
      const request = pending.get(exec.callId)
      if (decision.kind !== 'ask' || request === undefined || ctx.get('approval') !== undefined)
        return decision
      if (server.getClientCapabilities()?.elicitation === undefined) return decision
      try {
        const answer = await server.elicitInput(
          {
            message: `Allow the tool call \`${exec.name}\` with ${JSON.stringify(exec.arguments).slice(0, 2000)}?${decision.reason ? ` (${decision.reason})` : ''}`,
            requestedSchema: APPROVE_SCHEMA,
          },
          // On the call's own response stream over HTTP: a client need not open the standalone one.
          { signal: request.signal, relatedRequestId: request.requestId },
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
      offProgress?.()
      offGate()
      offChanged()
    },
  }
}

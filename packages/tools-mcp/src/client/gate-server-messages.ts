import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { gateMessages, type MessageGate } from '../gate-messages'
import { exceededLimit, type McpMessageLimits } from '../message-limits'

/** Entries of a `tools/list` answer that were past the limits, with why (see `refusedToolEntry`). */
const refusedEntries = new WeakMap<object, string>()

/** Why this `tools/list` entry was refused by the gate, if it was (it stands in for the entry). */
export function refusedToolEntry(entry: unknown): string | undefined {
  return typeof entry === 'object' && entry !== null ? refusedEntries.get(entry) : undefined
}

/**
 * A `tools/list` answer has its entries measured one by one: one tool with a monstrous schema
 * is refused on its own (a stand-in keeps its name for the warning), not the whole listing.
 */
function gateToolEntries(message: JSONRPCMessage, limits: McpMessageLimits): JSONRPCMessage {
  const result = (message as { result?: { tools?: unknown } }).result
  if (!Array.isArray(result?.tools)) return message
  const tools = result.tools.map((entry: unknown) => {
    const problem = exceededLimit(entry, limits, true)
    if (problem === undefined) return entry
    const name = (entry as { name?: unknown } | null)?.name
    const stand = typeof name === 'string' && name.length <= 256 ? { name } : {}
    refusedEntries.set(stand, problem)
    return stand
  })
  return { ...message, result: { ...result, tools } } as JSONRPCMessage
}

/**
 * Measure every message a server sends (nodes, depth, string characters) before the SDK parses
 * it against a result schema or the plugin converts, lists or validates anything in it. Past a
 * limit: an answer becomes a JSON-RPC error for the same request (so the call fails at once with
 * that reason, the session kept), a request from the server is refused, a notification dropped;
 * each is reported through `report`.
 */
export function gateServerMessages(
  transport: Transport,
  limits: McpMessageLimits,
  report: (message: string) => void,
): MessageGate {
  return gateMessages(transport, (received) => {
    const message = gateToolEntries(received, limits)
    const problem = exceededLimit(message, limits, true)
    if (problem === undefined) return message
    const id = (message as { id?: string | number }).id
    const kind = 'method' in message ? (message as { method: string }).method : 'an answer'
    const reason = `the server's message (${kind}) exceeds the client's limits: ${problem}`
    report(reason)
    if (id === undefined) return undefined
    const error = { jsonrpc: '2.0' as const, id, error: { code: ErrorCode.InvalidRequest, message: reason } }
    if ('method' in message) {
      void transport.send(error as JSONRPCMessage).catch(() => undefined)
      return undefined
    }
    return error as JSONRPCMessage
  })
}

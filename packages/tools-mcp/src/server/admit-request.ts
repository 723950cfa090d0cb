import {
  ErrorCode,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js'
import { exceededLimit, type McpMessageLimits } from '../message-limits'
import { textExceedsLimit } from '../text-exceeds-limit'

/** A JSON-RPC error answer to a request `serveMcp` refused before the SDK saw it. */
export interface RequestRefusal {
  /** The HTTP status it is sent with over HTTP. */
  readonly status: 400 | 413
  /** Whether a JSON-RPC answer is due (not for a notification, which is never answered). */
  readonly answer: boolean
  readonly body: {
    readonly jsonrpc: '2.0'
    readonly id: RequestId | null
    readonly error: { readonly code: number; readonly message: string }
  }
}

/** The id of a parsed message that carries one (else `null`, as JSON-RPC answers the unidentifiable). */
export function requestIdOf(value: unknown): RequestId | null {
  const id = (value as { id?: unknown } | null)?.id
  return typeof id === 'string' || typeof id === 'number' ? id : null
}

/**
 * What a refused text says about itself, for its answer: its top-level `id` and whether it is a
 * notification, read from the members outside every nested container (before the first and
 * after the last: the SDK writes `id` last), since the whole text is not parsed.
 */
function idFromText(text: string): { id?: RequestId; method?: string } {
  const body = text.trim()
  const firstNested = body.slice(1).search(/[[{]/)
  const head = firstNested === -1 ? body : body.slice(0, firstNested + 1)
  const lastNested = Math.max(body.lastIndexOf('}', body.length - 2), body.lastIndexOf(']', body.length - 2))
  const tail = firstNested === -1 || lastNested === -1 ? '' : body.slice(lastNested + 1)
  const outside = `${head.slice(0, 1024)} ${tail.slice(-1024)}`
  const id = /"id"\s*:\s*("(?:[^"\\]|\\.){0,200}"|-?\d{1,15})\s*(?:[,}]|$)/.exec(outside)?.[1]
  const parsedId = id === undefined ? undefined : (JSON.parse(id) as RequestId)
  return {
    ...(parsedId === undefined ? {} : { id: parsedId }),
    ...(/"method"\s*:/.test(outside) ? { method: 'method' } : {}),
  }
}

/** Whether a parsed message expects an answer (it has an id and a method). */
export const isRequest = (value: unknown): boolean =>
  requestIdOf(value) !== null && typeof (value as { method?: unknown }).method === 'string'

const isNotification = (value: unknown): boolean =>
  typeof (value as { method?: unknown } | null)?.method === 'string' &&
  (value as { id?: unknown }).id === undefined

function refusal(status: 400 | 413, value: unknown, code: number, message: string): RequestRefusal {
  const id = Array.isArray(value) ? null : requestIdOf(value)
  return { status, answer: !isNotification(value), body: { jsonrpc: '2.0', id, error: { code, message } } }
}

/** A refusal of a message too large to read at all. */
export const oversized = (limits: McpMessageLimits): RequestRefusal =>
  refusal(
    413,
    undefined,
    ErrorCode.InvalidRequest,
    `request refused: more than ${limits.maxBytes} bytes (maxBytes)`,
  )

/** Measure a parsed message (or batch) against `limits`: a refusal naming the limit, or `undefined`. */
export function measureRequest(value: unknown, limits: McpMessageLimits, strings: boolean) {
  const problem = exceededLimit(value, limits, strings)
  if (problem === undefined) return undefined
  return refusal(413, value, ErrorCode.InvalidRequest, `request refused: ${problem}`)
}

/**
 * Parse one request text already bounded by `maxBytes` and measure it before anything else
 * runs on it: the parsed value (for the SDK), or the refusal to answer with.
 */
export function admitRequestText(
  text: string,
  limits: McpMessageLimits,
): { readonly value: unknown } | { readonly refused: RequestRefusal } {
  // Measured on the text: `JSON.parse` of a message of many keys is itself the costly part.
  const problem = textExceedsLimit(text, limits)
  if (problem !== undefined) {
    return {
      refused: refusal(413, idFromText(text), ErrorCode.InvalidRequest, `request refused: ${problem}`),
    }
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error)
    return { refused: refusal(400, undefined, ErrorCode.ParseError, `parse error: ${detail.slice(0, 200)}`) }
  }
  return { value }
}

/** A measured value as one JSON-RPC message (stdio carries no batches), or the refusal. */
export function asMessage(value: unknown): JSONRPCMessage | RequestRefusal {
  const parsed = JSONRPCMessageSchema.safeParse(value)
  if (parsed.success) return parsed.data
  return refusal(400, value, ErrorCode.InvalidRequest, 'invalid request: not a JSON-RPC 2.0 message')
}

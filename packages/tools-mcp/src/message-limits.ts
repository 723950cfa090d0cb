/**
 * Bounds on one MCP message, checked in one linear pass before anything worse than linear (the
 * SDK's schema parsing of a request, our pipeline's snapshot and validation, a re-list's schema
 * checks) touches it. Both directions use it: `serveMcp` for what clients send, the client plugin
 * for what servers send.
 */

/** The most one MCP message may hold. */
export interface McpMessageLimits {
  /**
   * Bytes of the message's JSON text where the text is ours to read (a `serveMcp` HTTP body or
   * stdio line); for a message that arrives parsed, the code units of its strings and keys.
   */
  readonly maxBytes: number
  /** JSON values plus object keys (an object member counts two), at any depth. */
  readonly maxNodes: number
  /** Nesting of arrays and objects (a scalar at the root is depth 0). */
  readonly maxDepth: number
}

/** What `serveMcp` accepts from a client by default: 4 MiB (the SDK's own HTTP body cap), 100k nodes, depth 128. */
export const DEFAULT_REQUEST_LIMITS: McpMessageLimits = Object.freeze({
  maxBytes: 4 * 1024 * 1024,
  maxNodes: 100_000,
  maxDepth: 128,
})

/**
 * What the client plugin accepts from a server by default: 10 MiB (the SDK's stdio line cap),
 * 200k nodes, depth 256 (tool schemas nest more than arguments).
 */
export const DEFAULT_SERVER_MESSAGE_LIMITS: McpMessageLimits = Object.freeze({
  maxBytes: 10 * 1024 * 1024,
  maxNodes: 200_000,
  maxDepth: 256,
})

/**
 * Why `value` exceeds `limits` (naming the limit), or `undefined` when it fits. One iterative
 * pass that stops at the first limit passed: a container is refused by its length before its
 * members are read, so the cost is bounded by the limits, not by the value. `strings` also
 * counts string and key code units against `maxBytes` (for messages that arrive parsed).
 */
export function exceededLimit(
  value: unknown,
  limits: McpMessageLimits,
  strings: boolean,
): string | undefined {
  const { maxNodes, maxDepth, maxBytes } = limits
  const values: unknown[] = [value]
  const depths: number[] = [0]
  let nodes = 0
  let chars = 0
  while (values.length > 0) {
    const current = values.pop()
    const depth = depths.pop()!
    nodes++
    if (typeof current === 'string') chars += current.length
    if (typeof current !== 'object' || current === null) {
      if (nodes > maxNodes) return `more than ${maxNodes} JSON nodes (maxNodes)`
      if (strings && chars > maxBytes) return `more than ${maxBytes} characters of strings (maxBytes)`
      continue
    }
    if (depth + 1 > maxDepth) return `nested deeper than ${maxDepth} levels (maxDepth)`
    if (Array.isArray(current)) {
      if (nodes + current.length > maxNodes) return `more than ${maxNodes} JSON nodes (maxNodes)`
      for (const item of current) {
        values.push(item)
        depths.push(depth + 1)
      }
      continue
    }
    const keys = Object.keys(current)
    nodes += keys.length
    if (nodes + keys.length > maxNodes) return `more than ${maxNodes} JSON nodes (maxNodes)`
    for (const key of keys) {
      if (strings) chars += key.length
      values.push((current as Record<string, unknown>)[key])
      depths.push(depth + 1)
    }
    if (strings && chars > maxBytes) return `more than ${maxBytes} characters of strings (maxBytes)`
  }
  return undefined
}

const positiveInteger = (value: unknown): boolean =>
  typeof value === 'number' && Number.isInteger(value) && value > 0

/** `defaults` with `overrides` on top; a limit that is not a positive integer is a `RangeError`. */
export function resolveLimits(
  overrides: Partial<McpMessageLimits> | undefined,
  defaults: McpMessageLimits,
  where: string,
): McpMessageLimits {
  const limits = { ...defaults, ...overrides }
  for (const key of ['maxBytes', 'maxNodes', 'maxDepth'] as const) {
    if (!positiveInteger(limits[key]))
      throw new RangeError(`${where}: ${key} must be a positive integer, got ${String(limits[key])}`)
  }
  return Object.freeze(limits)
}

import { type JsonSchemaNode, type JsonValue, ToolArgsError } from '@dsh/tools-schema'
import { ToolAbortedError, ToolFailedError } from '../errors'
import type { ToolDefinition } from '../types'
import type { StoreLookup } from './result-store'
import { prefixEnd } from './utf8'

/** The name of the paging tool the runtime registers when `resultBudget` is set. */
export const READ_RESULT_TOOL_NAME = 'read_result'

/** Arguments of `read_result`. */
interface ReadResultArgs {
  readonly handle: string
  readonly offset?: number
  readonly limit?: number
}

/** One page: `text` is `[offset, nextOffset)` of the full text (UTF-16 code units). */
interface ReadResultPage {
  handle: string
  offset: number
  nextOffset: number | null
  totalChars: number
  text: string
}

const OUTPUT_SCHEMA = {
  type: 'object',
  properties: {
    handle: { type: 'string' },
    offset: { type: 'integer' },
    nextOffset: { oneOf: [{ type: 'integer' }, { type: 'null' }] },
    totalChars: { type: 'integer' },
    text: { type: 'string' },
  },
  required: ['handle', 'offset', 'nextOffset', 'totalChars', 'text'],
} as const satisfies JsonSchemaNode

function renderPage(page: ReadResultPage): string {
  const end = page.nextOffset ?? page.totalChars
  const next = page.nextOffset === null ? 'this is the end' : `next page: offset ${page.nextOffset}`
  return `[read_result ${page.handle}: characters ${page.offset}–${end} of ${page.totalChars}; ${next}]\n${page.text}`
}

/** Where `read_result` finds the text behind a handle (see `ResultBudget.lookup`). */
export type ResultLookup = (handle: string, agent: string | undefined) => StoreLookup | Promise<StoreLookup>

function pageOf(args: ReadResultArgs, found: StoreLookup, pageBytes: number): JsonValue {
  if (!found.found) {
    throw new ToolFailedError(
      found.reason === 'expired'
        ? `result handle \`${args.handle}\` has expired (evicted from the result store); run the tool again`
        : `result handle \`${args.handle}\` not found`,
    )
  }
  const text = found.text
  const offset = Math.min(args.offset ?? 0, text.length)
  const limit = Math.min(args.limit ?? text.length, text.length - offset)
  let end = prefixEnd(text.slice(offset, offset + limit), pageBytes) + offset
  // Always make progress: a single code point larger than the page still comes back whole.
  if (end === offset && limit > 0) end = prefixEnd(text, 4, offset)
  if (end === offset && limit > 0) end = offset + 1
  const last = text.charCodeAt(end - 1)
  if (end - 1 > offset && end < text.length && last >= 0xd800 && last <= 0xdbff) end--
  const page: ReadResultPage = {
    handle: args.handle,
    offset,
    nextOffset: end >= text.length ? null : end,
    totalChars: text.length,
    text: text.slice(offset, end),
  }
  return page as unknown as JsonValue
}

/** `pending`, or `ABORTED` once `signal` aborts first: a store that never answers must not hold an aborted call. */
function unlessAborted<T>(pending: Promise<T>, signal: AbortSignal): Promise<T> {
  const aborted = () => new ToolAbortedError('read_result was aborted before the tool state store answered')
  if (signal.aborted) return Promise.reject(aborted())
  return new Promise<T>((resolve, reject) => {
    const abandon = () => reject(aborted())
    signal.addEventListener('abort', abandon, { once: true })
    pending.then(resolve, reject).finally(() => signal.removeEventListener('abort', abandon))
  })
}

/**
 * The `read_result` tool over a lookup (this process's LRU, or the `ToolStateStore`, whose
 * failure ends the call `STORE_UNAVAILABLE` naming the store). Offsets and `limit` count UTF-16 code units (JavaScript
 * string indices), so pages concatenate to the exact original text; a page also stops before
 * `pageBytes` UTF-8 bytes (and never inside a surrogate pair), so it fits the budget that cut
 * the result. `nextOffset` is where the next page starts (`null` at the end).
 */
export function readResultTool(
  lookup: ResultLookup,
  pageBytes: () => number,
): ToolDefinition<ReadResultArgs, JsonValue> {
  return {
    name: READ_RESULT_TOOL_NAME,
    description:
      'Read the full text of a tool result that was cut to fit the context. Pass the handle named in the ' +
      'elision marker; page with `offset` (characters) and `limit` until `nextOffset` is null.',
    parameters: {
      type: 'object',
      properties: {
        handle: { type: 'string', description: 'The handle from the elision marker.' },
        offset: { type: 'integer', description: 'Character offset to start at (default 0).' },
        limit: { type: 'integer', description: 'Most characters to return (default: one budget).' },
      },
      required: ['handle'],
      additionalProperties: false,
    },
    output: {
      schema: OUTPUT_SCHEMA,
      render: (_args, value) => [{ type: 'text', text: renderPage(value as unknown as ReadResultPage) }],
    },
    execute(args, exec) {
      if (args.offset !== undefined && args.offset < 0) {
        throw new ToolArgsError([{ path: '$.offset', message: 'must be ≥ 0' }])
      }
      if (args.limit !== undefined && args.limit < 1) {
        throw new ToolArgsError([{ path: '$.limit', message: 'must be ≥ 1' }])
      }
      const found = lookup(args.handle, exec.agent)
      if (!(found instanceof Promise)) return pageOf(args, found, pageBytes())
      return unlessAborted(found, exec.signal).then((lookedUp) => pageOf(args, lookedUp, pageBytes()))
    },
    isConcurrencySafe: () => true,
  }
}

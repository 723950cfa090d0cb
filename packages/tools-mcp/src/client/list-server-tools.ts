import { ResultSchema } from '@modelcontextprotocol/sdk/types.js'
import type { ServerConnection } from './server-connection'

/** At most this many tools are taken from one server; the rest are reported, not registered. */
export const MAX_TOOLS_PER_SERVER = 1000
/** `tools/list` pages followed before giving up on a server that never stops paginating. */
export const MAX_LIST_PAGES = 100

/** Every `tools/list` entry, unparsed, and what had to be left out. */
export interface ListedTools {
  readonly entries: readonly unknown[]
  /** Why listing stopped early (too many tools, too many pages, a repeated cursor). */
  readonly truncated?: string
}

/**
 * Follow `tools/list` pagination. Entries stay unparsed so one malformed tool is reported on its
 * own instead of failing the page (the SDK's `listTools()` rejects a whole page for one bad tool
 * and compiles every output schema; we validate ours per tool).
 */
export async function listServerTools(connection: ServerConnection): Promise<ListedTools> {
  const client = await connection.client()
  const entries: unknown[] = []
  const seen = new Set<string>()
  let cursor: string | undefined
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    let result: Record<string, unknown>
    try {
      result = await client.request(
        { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
        ResultSchema,
        connection.requestOptions,
      )
    } catch (error) {
      throw await connection.requestFailure('tools/list', error)
    }
    const tools = result.tools
    if (!Array.isArray(tools)) {
      throw await connection.requestFailure('tools/list', new Error('the answer has no `tools` array'))
    }
    for (const entry of tools) {
      if (entries.length === MAX_TOOLS_PER_SERVER) {
        return { entries, truncated: `the server lists more than ${MAX_TOOLS_PER_SERVER} tools` }
      }
      entries.push(entry)
    }
    const next = result.nextCursor
    if (typeof next !== 'string') return { entries }
    if (seen.has(next)) return { entries, truncated: 'the server repeated a tools/list cursor' }
    seen.add(next)
    cursor = next
  }
  return { entries, truncated: `the server kept paginating past ${MAX_LIST_PAGES} pages` }
}

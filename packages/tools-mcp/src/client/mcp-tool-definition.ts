import {
  assertObjectJsonSchema,
  assertSupportedJsonSchema,
  type JsonSchemaNode,
  type JsonValue,
  type ObjectJsonSchema,
  snapshotJson,
  type ToolAnnotations,
  type ToolDefinition,
  type ToolRunContext,
} from '@dsh/tools-core'
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { McpServerError } from '../errors'
import { CONTENT_BLOCKS_SCHEMA, renderContentBlocks, textOfBlocks } from './content-blocks'
import { forwardProgress } from './forward-progress'
import type { ServerConnection } from './server-connection'

/** Descriptions longer than this are cut (with a marker): they are prompt text, paid every turn. */
export const MAX_DESCRIPTION_CHARS = 4096
/** Input or output schemas larger than this (as JSON) are refused. */
export const MAX_SCHEMA_CHARS = 64 * 1024

/** How one server tool becomes a local definition. */
export interface McpToolBinding {
  readonly local: string
  readonly connection: ServerConnection
  readonly trustAnnotations: boolean
}

/** A built definition plus notes for the log, or the reason the tool cannot be registered. */
export type McpToolBuild =
  | { readonly definition: ToolDefinition; readonly notes: readonly string[] }
  | { readonly refused: string }

function boundedDescription(tool: Tool): string {
  const text = tool.description ?? tool.title ?? ''
  if (text.length <= MAX_DESCRIPTION_CHARS) return text
  return `${text.slice(0, MAX_DESCRIPTION_CHARS)}… (description truncated from ${text.length} characters)`
}

/** Root `$schema` URIs whose meaning for the enforced keyword subset is the same as the gate's. */
const SAME_SUBSET_DIALECTS = new Set([
  'http://json-schema.org/draft-07/schema#',
  'http://json-schema.org/draft-07/schema',
  'https://json-schema.org/draft/2019-09/schema',
  'https://json-schema.org/draft/2020-12/schema',
])

function gate(schema: unknown, object: boolean): void {
  if (object) assertObjectJsonSchema(schema)
  else assertSupportedJsonSchema(schema)
}

/**
 * The schema as a frozen JSON snapshot, or why it is refused (size, shape, the runtime's keyword
 * gate). A schema the gate refuses only for its root `$schema` (as zod-generated schemas
 * declare draft-07) is retried without it when the dialect is one whose subset keywords mean the
 * same; `dropped` records it. Once the gate accepts `$schema` (issue 12), the schema passes unchanged.
 */
function checkedSchema(
  schema: unknown,
  object: boolean,
  dropped: string[],
  what: string,
): JsonSchemaNode | string {
  let size: number
  try {
    size = JSON.stringify(schema).length
  } catch (error) {
    return `schema cannot be serialized: ${error instanceof Error ? error.message : String(error)}`
  }
  if (size > MAX_SCHEMA_CHARS) return `schema is ${size} characters of JSON (limit ${MAX_SCHEMA_CHARS})`
  try {
    gate(schema, object)
    return snapshotJson(schema) as JsonSchemaNode
  } catch (error) {
    const dialect = (schema as { $schema?: unknown } | null)?.$schema
    const reason = error instanceof Error ? error.message : String(error)
    if (typeof dialect !== 'string' || !SAME_SUBSET_DIALECTS.has(dialect)) return reason
    const { $schema: _dialect, ...rest } = schema as Record<string, unknown>
    try {
      gate(rest, object)
    } catch (retry) {
      return retry instanceof Error ? retry.message : String(retry)
    }
    dropped.push(`${what} ${JSON.stringify(dialect)}`)
    return snapshotJson(rest) as JsonSchemaNode
  }
}

function annotationsOf(tool: Tool): ToolAnnotations | undefined {
  const hints = tool.annotations
  if (hints === undefined) return undefined
  const out: Record<string, boolean> = {}
  if (typeof hints.readOnlyHint === 'boolean') out.readOnly = hints.readOnlyHint
  if (typeof hints.destructiveHint === 'boolean') out.destructive = hints.destructiveHint
  if (typeof hints.idempotentHint === 'boolean') out.idempotent = hints.idempotentHint
  if (typeof hints.openWorldHint === 'boolean') out.openWorld = hints.openWorldHint
  return Object.freeze(out)
}

async function callServer(
  tool: Tool,
  connection: ServerConnection,
  structured: boolean,
  args: JsonValue,
  exec: ToolRunContext,
): Promise<JsonValue> {
  const reports = typeof (exec as { progress?: unknown }).progress === 'function'
  const result = await connection.callTool(
    tool.name,
    args,
    exec.signal,
    reports ? (progress) => forwardProgress(exec, progress) : undefined,
  )
  if (result.isError === true) {
    const text = textOfBlocks(result.content) || '(no error text)'
    throw new McpServerError(
      connection.server,
      `MCP tool "${tool.name}" on server "${connection.server}" failed: ${text}`,
    )
  }
  if (!structured) return result.content as JsonValue
  if (result.structuredContent === undefined) {
    throw new McpServerError(
      connection.server,
      `MCP tool "${tool.name}" on server "${connection.server}" declares an outputSchema but returned no structuredContent`,
    )
  }
  return result.structuredContent as JsonValue
}

/**
 * Build the local definition of one server tool: `inputSchema` → parameters (refused by the
 * schema gate → the tool is not registered, with the reason); `outputSchema` → the output schema
 * and `structuredContent` the value (a refused `outputSchema` falls back, with a note, to the
 * content-block value); annotations only when trusted.
 */
export function buildMcpToolDefinition(tool: Tool, binding: McpToolBinding): McpToolBuild {
  const notes: string[] = []
  const dropped: string[] = []
  // A plain tools/call to such a tool always fails (-32601): registering it would only offer the model a dead tool.
  if (tool.execution?.taskSupport === 'required') {
    return {
      refused:
        'it requires task-augmented execution (execution.taskSupport "required", MCP tasks), which this client does not use',
    }
  }
  const parameters = checkedSchema(tool.inputSchema, true, dropped, 'inputSchema')
  if (typeof parameters === 'string') return { refused: `inputSchema refused: ${parameters}` }
  let outputSchema = CONTENT_BLOCKS_SCHEMA
  let structured = false
  if (tool.outputSchema !== undefined) {
    const checked = checkedSchema(tool.outputSchema, false, dropped, 'outputSchema')
    if (typeof checked === 'string') {
      notes.push(`outputSchema refused (${checked}); the value is the content blocks instead`)
    } else {
      outputSchema = checked
      structured = true
    }
  }
  if (dropped.length > 0) {
    notes.unshift(
      `root $schema dropped from ${dropped.join(' and ')} (the schema gate does not take $schema yet; its keywords mean the same)`,
    )
  }
  const { connection } = binding
  const definition: Record<string, unknown> = {
    name: binding.local,
    description: boundedDescription(tool),
    parameters: parameters as ObjectJsonSchema,
    output: Object.freeze({
      schema: outputSchema,
      render: (_args: JsonValue, value: JsonValue) =>
        structured ? [{ type: 'text', text: JSON.stringify(value, null, 2) }] : renderContentBlocks(value),
    }),
    execute: (args: JsonValue, exec: ToolRunContext) => callServer(tool, connection, structured, args, exec),
  }
  const annotations = binding.trustAnnotations ? annotationsOf(tool) : undefined
  if (annotations !== undefined) definition.annotations = annotations
  return { definition: Object.freeze(definition) as unknown as ToolDefinition, notes }
}

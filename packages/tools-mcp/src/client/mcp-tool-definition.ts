import {
  assertObjectJsonSchema,
  assertSupportedJsonSchema,
  type JsonSchemaNode,
  type JsonValue,
  type ObjectJsonSchema,
  snapshotJson,
  type ToolAnnotations,
  type ToolContent,
  type ToolDefinition,
  type ToolExecution,
  type ToolExecutionResult,
  type ToolExecutionToken,
  type ToolProgressUpdate,
  type ToolRunContext,
  UnknownToolError,
} from '@dsh/tools-core'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { CallToolResult, Progress, Tool } from '@modelcontextprotocol/sdk/types.js'
import { McpServerError } from '../errors'
import { CONTENT_BLOCKS_SCHEMA, renderContentBlocks, textOfBlocks } from './content-blocks'
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
  /** Whether anyone observes this call's progress (then a progress token is requested). */
  progressObserved(): boolean
  /** Whether the server still lists this tool (false once a re-list found it gone). */
  listed(): boolean
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

function gate(schema: unknown, object: boolean): void {
  if (object) assertObjectJsonSchema(schema)
  else assertSupportedJsonSchema(schema)
}

/**
 * The schema as a frozen JSON snapshot, or why it is refused (size, shape, the runtime's gate).
 * The gate reads a root `$schema` (draft-04, draft-06, draft-07, 2019-09, 2020-12) and judges the schema in that
 * dialect, so a zod-generated draft-07 schema passes unchanged.
 */
function checkedSchema(schema: unknown, object: boolean): JsonSchemaNode | string {
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
    return error instanceof Error ? error.message : String(error)
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

/** What one registered tool's body needs per call, built once at registration. */
interface ServerCall {
  readonly tool: Tool
  readonly binding: McpToolBinding
  /** Whether the value is `structuredContent` (else the content blocks). */
  readonly structured: boolean
  /** The call's value from the SDK's result: `structuredContent` or the content blocks. */
  readonly toValue: (result: CallToolResult) => JsonValue
}

/**
 * The content blocks of a structured answer, by execution, until `finalizeContent` shows them to
 * the model. MCP meant `content` for the model and `structuredContent` for programs: a file
 * reader's text or image would otherwise reach the model as escaped JSON (or base64 text).
 * Keyed weakly by the execution's token, so a block list whose call ended without a result
 * (aborted after the answer) is not kept.
 */
const shownBlocks = new WeakMap<ToolExecutionToken, CallToolResult['content']>()

/** `finalizeContent` of a structured tool: the server's content blocks, rendered, when it sent any. */
function showServerBlocks(exec: ToolExecution, result: ToolExecutionResult): ToolContent | undefined {
  const blocks = shownBlocks.get(exec.token)
  shownBlocks.delete(exec.token)
  if (result.isError || blocks === undefined || blocks.length === 0) return undefined
  return renderContentBlocks(blocks as JsonValue)
}

function resultToValue(
  tool: Tool,
  server: string,
  structured: boolean,
): (result: CallToolResult) => JsonValue {
  return (result) => {
    if (result.isError === true) {
      const text = textOfBlocks(result.content) || '(no error text)'
      throw new McpServerError(server, `MCP tool "${tool.name}" on server "${server}" failed: ${text}`)
    }
    if (!structured) return result.content as JsonValue
    if (result.structuredContent === undefined) {
      throw new McpServerError(
        server,
        `MCP tool "${tool.name}" on server "${server}" declares an outputSchema but returned no structuredContent`,
      )
    }
    return result.structuredContent as JsonValue
  }
}

function send(call: ServerCall, client: Client, args: JsonValue, exec: ToolRunContext): Promise<JsonValue> {
  const { binding } = call
  // A closure per call only when someone observes progress (SPEC §12: `tools/progress`, which the
  // timeout policy's `resetTimeoutOnProgress` listens to); `exec.progress` sanitizes and never throws.
  const onprogress = binding.progressObserved()
    ? (progress: Progress) => exec.progress(progress as ToolProgressUpdate)
    : undefined
  const convert = call.structured
    ? (result: CallToolResult) => {
        const value = call.toValue(result)
        shownBlocks.set(exec.token, result.content)
        return value
      }
    : call.toValue
  return binding.connection.callTool(client, call.tool.name, args, exec.signal, onprogress, convert)
}

/**
 * The body of an MCP tool. On a live session the request goes out with no `await` before it.
 * After a reconnect it waits for the re-list, and a tool the restarted server no longer lists
 * is `UNKNOWN_TOOL` instead of a call the server would refuse.
 */
function callServer(call: ServerCall, args: JsonValue, exec: ToolRunContext): Promise<JsonValue> {
  const client = call.binding.connection.ready()
  if (!(client instanceof Promise)) return send(call, client, args, exec)
  return client.then((ready) => {
    if (!call.binding.listed()) {
      const { server } = call.binding.connection
      throw new UnknownToolError(
        `unknown tool: ${exec.name} (MCP server "${server}" no longer lists "${call.tool.name}" after reconnecting)`,
      )
    }
    return send(call, ready, args, exec)
  })
}

/**
 * Build the local definition of one server tool: `inputSchema` → parameters (refused by the
 * schema gate → the tool is not registered, with the reason); `outputSchema` → the output schema
 * and `structuredContent` the value (a refused `outputSchema` falls back, with a note, to the
 * content-block value); annotations only when trusted.
 */
export function buildMcpToolDefinition(tool: Tool, binding: McpToolBinding): McpToolBuild {
  const notes: string[] = []
  // A plain tools/call to such a tool always fails (-32601): registering it would only offer the model a dead tool.
  if (tool.execution?.taskSupport === 'required') {
    return {
      refused:
        'it requires task-augmented execution (execution.taskSupport "required", MCP tasks), which this client does not use',
    }
  }
  const parameters = checkedSchema(tool.inputSchema, true)
  if (typeof parameters === 'string') return { refused: `inputSchema refused: ${parameters}` }
  let outputSchema = CONTENT_BLOCKS_SCHEMA
  let structured = false
  if (tool.outputSchema !== undefined) {
    const checked = checkedSchema(tool.outputSchema, false)
    if (typeof checked === 'string') {
      notes.push(`outputSchema refused (${checked}); the value is the content blocks instead`)
    } else {
      outputSchema = checked
      structured = true
    }
  }
  const call: ServerCall = {
    tool,
    binding,
    structured,
    toValue: resultToValue(tool, binding.connection.server, structured),
  }
  const definition: Record<string, unknown> = {
    name: binding.local,
    description: boundedDescription(tool),
    parameters: parameters as ObjectJsonSchema,
    output: Object.freeze({
      schema: outputSchema,
      render: (_args: JsonValue, value: JsonValue) =>
        structured ? [{ type: 'text', text: JSON.stringify(value, null, 2) }] : renderContentBlocks(value),
    }),
    execute: (args: JsonValue, exec: ToolRunContext) => callServer(call, args, exec),
  }
  if (structured) definition.finalizeContent = showServerBlocks
  // Declared so a timeout policy enforces the same deadline as TOOL_TIMEOUT, restarted on progress.
  if (binding.connection.timeoutMs !== undefined) definition.timeoutMs = binding.connection.timeoutMs
  const annotations = binding.trustAnnotations ? annotationsOf(tool) : undefined
  if (annotations !== undefined) definition.annotations = annotations
  return { definition: Object.freeze(definition) as unknown as ToolDefinition, notes }
}

import type {
  JsonSchemaNode,
  JsonValue,
  ToolAnnotations,
  ToolContent,
  ToolExecutionResult,
  ToolSchema,
} from '@dsh/tools-core'
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js'

/** MCP requires an object `outputSchema`; any other output is wrapped as `{ value }`. */
export function needsWrapping(outputSchema: JsonSchemaNode): boolean {
  return (outputSchema as { type?: unknown }).type !== 'object'
}

function mcpAnnotations(annotations: ToolAnnotations | undefined): Tool['annotations'] | undefined {
  if (annotations === undefined) return undefined
  const out: Record<string, boolean> = {}
  if (annotations.readOnly !== undefined) out.readOnlyHint = annotations.readOnly
  if (annotations.destructive !== undefined) out.destructiveHint = annotations.destructive
  if (annotations.idempotent !== undefined) out.idempotentHint = annotations.idempotent
  if (annotations.openWorld !== undefined) out.openWorldHint = annotations.openWorld
  return Object.keys(out).length === 0 ? undefined : out
}

/** A visible tool as an MCP `Tool`: parameters as `inputSchema`, the output (wrapped if need be), annotations. */
export function toMcpTool(schema: ToolSchema, annotations: ToolAnnotations | undefined): Tool {
  const outputSchema = needsWrapping(schema.outputSchema)
    ? { type: 'object' as const, properties: { value: schema.outputSchema }, required: ['value'] }
    : schema.outputSchema
  const hints = mcpAnnotations(annotations)
  return {
    name: schema.name,
    description: schema.description,
    inputSchema: schema.parameters as Tool['inputSchema'],
    outputSchema: outputSchema as Tool['outputSchema'],
    ...(hints === undefined ? {} : { annotations: hints }),
  }
}

function toMcpContent(content: ToolContent): CallToolResult['content'] {
  return content.map((part) =>
    part.type === 'text'
      ? { type: 'text' as const, text: part.text }
      : { type: 'image' as const, data: part.data, mimeType: part.mediaType },
  )
}

/** A pipeline result as an MCP `CallToolResult`: content always, `structuredContent` on success. */
export function toCallToolResult(result: ToolExecutionResult, wrap: boolean): CallToolResult {
  const content = toMcpContent(result.content)
  if (result.isError) return { content, isError: true }
  const value: JsonValue = result.value
  return { content, structuredContent: (wrap ? { value } : value) as Record<string, unknown> }
}

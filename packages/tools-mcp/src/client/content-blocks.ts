import {
  type ContentPart,
  type JsonSchemaNode,
  type JsonValue,
  snapshotJson,
  type ToolContent,
} from '@dsh/tools-core'

/**
 * The output schema of an MCP tool without a usable `outputSchema`: its value is the lossless
 * JSON of the content blocks it returned (text, image, audio, resource_link, resource).
 */
export const CONTENT_BLOCKS_SCHEMA = snapshotJson({
  type: 'array',
  description: 'The MCP content blocks the tool returned: text, image, audio, resource_link or resource.',
  items: { type: 'object', properties: { type: { type: 'string' } }, required: ['type'] },
}) as JsonSchemaNode

type Block = Readonly<Record<string, JsonValue>>

const str = (value: JsonValue | undefined): string | undefined =>
  typeof value === 'string' ? value : undefined
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

function base64Bytes(data: string): number {
  return Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0)
}

function renderResource(resource: JsonValue | undefined): string {
  if (typeof resource !== 'object' || resource === null || Array.isArray(resource)) return '[resource]'
  const { uri, mimeType, text, blob } = resource as Block
  const head = `[resource ${str(uri) ?? '?'}${str(mimeType) ? ` (${mimeType})` : ''}]`
  if (typeof text === 'string') return `${head}\n${text}`
  if (typeof blob === 'string') return `${head} binary, ${base64Bytes(blob)} bytes`
  return head
}

/** One content block as a model-facing part; unknown block types render as their JSON. */
function renderBlock(block: JsonValue): ContentPart {
  if (typeof block !== 'object' || block === null || Array.isArray(block)) {
    return { type: 'text', text: JSON.stringify(block) }
  }
  const b = block as Block
  switch (b.type) {
    case 'text':
      if (typeof b.text === 'string') return { type: 'text', text: b.text }
      break
    case 'image': {
      const data = str(b.data)
      const mediaType = str(b.mimeType)
      if (data !== undefined && mediaType !== undefined && BASE64.test(data))
        return { type: 'image', mediaType, data }
      break
    }
    case 'audio':
      return {
        type: 'text',
        text: `[audio${str(b.mimeType) ? ` ${b.mimeType}` : ''}, ${base64Bytes(str(b.data) ?? '')} bytes]`,
      }
    case 'resource_link': {
      const description = str(b.description)
      return {
        type: 'text',
        text: `[resource link ${str(b.name) ?? ''} ${str(b.uri) ?? '?'}${str(b.mimeType) ? ` (${b.mimeType})` : ''}]${description ? ` ${description}` : ''}`,
      }
    }
    case 'resource':
      return { type: 'text', text: renderResource(b.resource) }
  }
  return { type: 'text', text: JSON.stringify(block) }
}

/**
 * Render MCP content blocks as model-facing parts: text → text, image → image, the rest (audio,
 * resource links, embedded resources, unknown kinds) → a text line that says what it is.
 */
export function renderContentBlocks(blocks: JsonValue): ToolContent {
  const list = Array.isArray(blocks) ? blocks : [blocks]
  if (list.length === 0) return [{ type: 'text', text: '(the MCP tool returned no content)' }]
  return list.map(renderBlock)
}

/** The text of the text blocks, for failure messages (`isError` results). */
export function textOfBlocks(blocks: unknown): string {
  if (!Array.isArray(blocks)) return ''
  return blocks
    .filter((block): block is { text: string } => typeof block?.text === 'string' && block.type === 'text')
    .map((block) => block.text)
    .join('\n')
}

import type { JsonValue } from '@dsh/tools-schema'
import type { CompiledTool } from '../internal/compiled-tool'
import type { ScopeKey, ToolDefinition } from '../types'
import { MAX_QUERY_CHARS, rankTools } from './rank-tools'

/** The name of the search tool present while an agent has deferred tools. */
export const TOOL_SEARCH_TOOL_NAME = 'tool_search'

const DEFAULT_LIMIT = 5
const MAX_LIMIT = 20
const MAX_DESCRIPTION_CHARS = 1000
const MAX_SUMMARY_FIELDS = 32

interface ToolSearchArgs {
  readonly query: string
  readonly limit?: number
}

interface ToolSearchMatch {
  name: string
  description: string
  parameters: string
}

/** `path: string (required), limit: integer` — enough for the model to call the tool next turn. */
function summarize(tool: CompiledTool): string {
  const parameters = tool.schema.parameters as {
    properties?: Record<string, { type?: unknown }>
    required?: unknown
  }
  const required = new Set(Array.isArray(parameters.required) ? parameters.required : [])
  const fields = Object.entries(parameters.properties ?? {})
  const out = fields.slice(0, MAX_SUMMARY_FIELDS).map(([name, schema]) => {
    const type = Array.isArray(schema?.type)
      ? schema.type.join('|')
      : typeof schema?.type === 'string'
        ? schema.type
        : 'any'
    return `${name}: ${type}${required.has(name) ? ' (required)' : ''}`
  })
  if (fields.length > MAX_SUMMARY_FIELDS) out.push(`… ${fields.length - MAX_SUMMARY_FIELDS} more`)
  return out.length === 0 ? '(no parameters)' : out.join(', ')
}

function render(matches: readonly ToolSearchMatch[]): string {
  if (matches.length === 0) return 'No deferred tool matches that query. Try other words.'
  const lines = ['Loaded these tools; they are callable now and listed with full schemas from the next turn:']
  for (const match of matches) lines.push(`- ${match.name}(${match.parameters}): ${match.description}`)
  return lines.join('\n')
}

/** What the search tool needs from the runtime. */
export interface ToolSearchHost {
  deferredFor(agent: ScopeKey | undefined): readonly CompiledTool[]
  load(names: readonly string[], agent: ScopeKey | undefined): void
}

/**
 * The `tool_search` tool: ranks the calling agent's deferred, not-yet-loaded tools by name,
 * parameter names and description (BM25) and loads the matches for that agent only.
 */
export function toolSearchTool(host: ToolSearchHost): ToolDefinition<ToolSearchArgs, JsonValue> {
  return {
    name: TOOL_SEARCH_TOOL_NAME,
    description:
      'Find and load tools that are available but not listed yet. Describe the capability you need in a ' +
      'few words; the best matches are loaded for you and returned with their parameters.',
    parameters: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          description: `Words describing the tool you need (first ${MAX_QUERY_CHARS} characters are used).`,
        },
        limit: {
          type: 'integer',
          description: `Most tools to load (1–${MAX_LIMIT}, default ${DEFAULT_LIMIT}).`,
        },
      },
      required: ['query'],
      additionalProperties: false,
    },
    output: {
      schema: {
        type: 'object',
        properties: {
          matches: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                name: { type: 'string' },
                description: { type: 'string' },
                parameters: { type: 'string' },
              },
              required: ['name', 'description', 'parameters'],
            },
          },
        },
        required: ['matches'],
      },
      render: (_args, value) => [
        { type: 'text', text: render((value as unknown as { matches: ToolSearchMatch[] }).matches) },
      ],
    },
    execute(args, exec) {
      const candidates = host.deferredFor(exec.agent)
      const byName = new Map(candidates.map((tool) => [tool.name, tool]))
      const ranked = rankTools(
        candidates.map((tool) => tool.schema),
        args.query,
        Math.min(MAX_LIMIT, Math.max(1, args.limit ?? DEFAULT_LIMIT)),
      )
      const matches: ToolSearchMatch[] = ranked.map(({ tool }) => ({
        name: tool.name,
        description: tool.description.slice(0, MAX_DESCRIPTION_CHARS),
        parameters: summarize(byName.get(tool.name)!),
      }))
      host.load(
        matches.map((match) => match.name),
        exec.agent,
      )
      return { matches } as unknown as JsonValue
    },
    // Loading changes what later calls resolve to: never overlap it with other calls.
    isConcurrencySafe: () => false,
  }
}

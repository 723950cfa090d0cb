import { copyJson, walkSchemas } from './internal/schema-walk'
import type { JsonSchema } from './types'

/** Options of `normalizeSchema`: the dialect the schema was written in. */
export interface NormalizeSchemaOptions {
  readonly from: 'openapi-3.0' | 'gemini'
}

const TYPE_NAMES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array'])

function normalizeNode(node: Record<string, unknown>): void {
  // Gemini writes type names in upper case (`STRING`); TYPE_UNSPECIFIED means "no type".
  if (typeof node.type === 'string') {
    const lower = node.type.toLowerCase()
    if (TYPE_NAMES.has(lower)) node.type = lower
    else if (lower === 'type_unspecified') delete node.type
  }
  if (node.nullable === true) {
    if (typeof node.type === 'string') node.type = [node.type, 'null']
    else if (Array.isArray(node.type) && !node.type.includes('null')) node.type = [...node.type, 'null']
    if (Array.isArray(node.enum) && !node.enum.includes(null)) node.enum = [...node.enum, null]
  }
  delete node.nullable
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof node[flag] !== 'boolean') continue
    if (node[flag] === true && typeof node[bound] === 'number') {
      node[flag] = node[bound]
      delete node[bound]
    } else delete node[flag]
  }
  // OpenAPI's singular `example` is the standard `examples` list.
  if ('example' in node) {
    if (!Array.isArray(node.examples)) node.examples = [node.example]
    delete node.example
  }
  // Gemini marks string enums with `format: "enum"`, which is not a JSON Schema format.
  if (node.format === 'enum') delete node.format
  delete node.$schema
}

/**
 * Converts an OpenAPI 3.0 schema object or a Gemini function-declaration schema to JSON Schema
 * 2020-12, returning a new document (the input is not modified): `nullable: true` becomes a
 * `"null"` member of `type` (and of `enum`), boolean `exclusiveMinimum`/`exclusiveMaximum` take
 * the `minimum`/`maximum` value, upper-case Gemini type names become lower case, `example`
 * becomes `examples`, Gemini's `format: "enum"` is dropped. `x-` extensions and other unknown
 * keywords are kept as they are (validation ignores them; `lintSchema` lists them). Iterative.
 */
export function normalizeSchema(schema: JsonSchema, options: NormalizeSchemaOptions): JsonSchema {
  void options.from // Both dialects share these rules today; `from` keeps the call explicit.
  const copy = copyJson(schema)
  for (const { node } of walkSchemas(copy)) normalizeNode(node)
  return copy
}

import { copyJson, walkSchemas } from './internal/schema-walk'
import type { JsonSchema } from './types'

/** Options of `normalizeSchema`: the dialect the schema was written in. */
export interface NormalizeSchemaOptions {
  readonly from: 'openapi-3.0' | 'gemini'
}

const TYPE_NAMES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array'])

// Keywords that can refuse null whatever `type` says: a nullable node holding one is wrapped.
const NULL_REFUSING_APPLICATORS = ['$ref', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'const']
const ANNOTATIONS = ['title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly']

/**
 * `nullable: true` means "this, or null" (OpenAPI 3.0, Gemini). On a plain typed node that is a
 * `"null"` type (and enum) member. A node whose `$ref` / `allOf` / … could still refuse null (the
 * usual way to make a referenced schema nullable: `{ allOf: [{ $ref }], nullable: true }`)
 * becomes `{ anyOf: [node, { type: 'null' }] }`, its annotations kept outside.
 */
function addNull(node: Record<string, unknown>): void {
  if (NULL_REFUSING_APPLICATORS.some((key) => key in node)) {
    const rest: Record<string, unknown> = {}
    for (const key of Object.keys(node)) {
      if (ANNOTATIONS.includes(key)) continue
      rest[key] = node[key]
      delete node[key]
    }
    node.anyOf = [rest, { type: 'null' }]
    return
  }
  if (typeof node.type === 'string') node.type = [node.type, 'null']
  else if (Array.isArray(node.type) && !node.type.includes('null')) node.type = [...node.type, 'null']
  if (Array.isArray(node.enum) && !node.enum.includes(null)) node.enum = [...node.enum, null]
}

function normalizeNode(node: Record<string, unknown>): void {
  // Gemini writes type names in upper case (`STRING`); TYPE_UNSPECIFIED means "no type".
  if (typeof node.type === 'string') {
    const lower = node.type.toLowerCase()
    if (TYPE_NAMES.has(lower)) node.type = lower
    else if (lower === 'type_unspecified') delete node.type
  }
  const nullable = node.nullable === true
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
  // Last, so a wrapped node's keywords are already converted.
  if (nullable) addNull(node)
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
  // OpenAPI keeps named schemas under `components.schemas` (a `$ref` target, not a keyword
  // position), so they are walked as well.
  const components = (copy as { components?: { schemas?: unknown } } | null)?.components?.schemas
  if (typeof components === 'object' && components !== null && !Array.isArray(components))
    for (const member of Object.values(components))
      for (const { node } of walkSchemas(member)) normalizeNode(node)
  return copy
}

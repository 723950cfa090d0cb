import { dialectOf } from './internal/compile-schema'
import { setOwn } from './internal/describe'
import { type Dialect, ignoredByDialect, isPre2019 } from './internal/dialect'
import { copyJson, walkSchemas } from './internal/schema-walk'
import type { JsonSchema } from './types'

/** Options of `normalizeSchema`: the dialect the schema was written in. */
export interface NormalizeSchemaOptions {
  /**
   * `'openapi-3.0'`: an OpenAPI 3.0 schema object. `'gemini'`: a Gemini function-declaration
   * schema (OpenAPI subset, upper-case type names, counts as decimal strings). `'json-schema'`:
   * a JSON Schema document whose root `$schema` names its dialect (draft-04 to 2020-12).
   */
  readonly from: 'openapi-3.0' | 'gemini' | 'json-schema'
}

const TYPE_NAMES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array'])
const DRAFT_07 = 'http://json-schema.org/draft-07/schema#'

// Keywords that can refuse null whatever `type` says: a nullable node holding one is wrapped.
const NULL_REFUSING_APPLICATORS = ['$ref', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'const']
const ANNOTATIONS = ['title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly']
// Gemini's int64 fields, which its JSON encoding writes as decimal strings (`"minItems": "1"`).
const GEMINI_COUNTS = ['minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties']

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
      setOwn(rest, key, node[key])
      delete node[key]
    }
    node.anyOf = [rest, { type: 'null' }]
    return
  }
  if (typeof node.type === 'string') node.type = [node.type, 'null']
  else if (Array.isArray(node.type) && !node.type.includes('null')) node.type = [...node.type, 'null']
  if (Array.isArray(node.enum) && !node.enum.includes(null)) node.enum = [...node.enum, null]
}

/** Boolean `exclusiveMinimum`/`exclusiveMaximum` (draft-04, OpenAPI 3.0) take the bound's value. */
function numericExclusiveBounds(node: Record<string, unknown>): void {
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
}

/** OpenAPI 3.0 / Gemini spellings, rewritten as 2020-12. */
function normalizeOpenApiNode(node: Record<string, unknown>, gemini: boolean): void {
  // Gemini writes type names in upper case (`STRING`); TYPE_UNSPECIFIED means "no type".
  if (typeof node.type === 'string') {
    const lower = node.type.toLowerCase()
    if (TYPE_NAMES.has(lower)) node.type = lower
    else if (lower === 'type_unspecified') delete node.type
  }
  if (gemini)
    for (const key of GEMINI_COUNTS)
      if (typeof node[key] === 'string' && /^\d{1,15}$/.test(node[key])) node[key] = Number(node[key])
  const nullable = node.nullable === true
  delete node.nullable
  numericExclusiveBounds(node)
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
 * A JSON Schema node of `dialect`, in the form the validator reads it: draft-04's `id` is `$id`,
 * keywords its dialect does not have are dropped (they would apply once the document says
 * draft-07), and the OpenAPI spellings the validator reads in every dialect (`nullable: true`, a
 * boolean exclusive bound) take their standard form.
 */
function normalizeJsonSchemaNode(node: Record<string, unknown>, dialect: Dialect): void {
  const id = node.id
  if (dialect === 'draft-06' || dialect === 'draft-04')
    for (const key of Object.keys(node))
      if (ignoredByDialect(key, dialect) && !ignoredByDialect(key, 'draft-07')) delete node[key]
  if (dialect === 'draft-04') {
    delete node.id
    if (typeof id === 'string') node.$id = id
  }
  numericExclusiveBounds(node)
  const nullable = node.nullable === true
  delete node.nullable
  // Up to draft-07 the siblings of `$ref` are ignored, `nullable` among them.
  if (nullable && !(isPre2019(dialect) && '$ref' in node)) addNull(node)
}

/**
 * Converts a schema written in another dialect into the JSON Schema the rest of the toolkit
 * (validation, code generation, provider dialects) reads, returning a new document (the input is
 * not modified). Iterative.
 *
 * - `'openapi-3.0'` / `'gemini'` → 2020-12: `nullable: true` becomes a `"null"` member of `type`
 *   (and of `enum`), boolean `exclusiveMinimum`/`exclusiveMaximum` take the `minimum`/`maximum`
 *   value, upper-case Gemini type names become lower case, Gemini's string counts (`"minItems":
 *   "1"`) become numbers, `example` becomes `examples`, Gemini's `format: "enum"` is dropped.
 * - `'json-schema'`: the dialect comes from `$schema` (an unsupported one throws
 *   `UnsupportedJsonSchemaError`). draft-04 and draft-06 documents become draft-07 (`id` →
 *   `$id`, boolean exclusive bounds → numbers, keywords the source draft lacks dropped); every
 *   dialect gets `nullable: true` and boolean exclusive bounds rewritten as above.
 *
 * `x-` extensions and other unknown keywords are kept (validation ignores them; `lintSchema`
 * lists them).
 */
export function normalizeSchema(schema: JsonSchema, options: NormalizeSchemaOptions): JsonSchema {
  const copy = copyJson(schema)
  const dialect = options.from === 'json-schema' ? dialectOf(copy) : undefined
  const normalize = (node: Record<string, unknown>) =>
    dialect === undefined
      ? normalizeOpenApiNode(node, options.from === 'gemini')
      : normalizeJsonSchemaNode(node, dialect)
  // OpenAPI keeps named schemas under `components.schemas` (a `$ref` target, not a keyword
  // position), so they are walked as well.
  const components = (copy as { components?: { schemas?: unknown } } | null)?.components?.schemas
  const roots = [copy]
  if (typeof components === 'object' && components !== null && !Array.isArray(components))
    roots.push(...Object.values(components))
  for (const root of roots) for (const { node } of walkSchemas(root)) normalize(node)
  if ((dialect === 'draft-04' || dialect === 'draft-06') && typeof copy === 'object' && copy !== null)
    (copy as Record<string, unknown>).$schema = DRAFT_07
  return copy
}

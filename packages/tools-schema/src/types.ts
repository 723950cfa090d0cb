/**
 * A lossless JSON value: exactly what `JSON.parse` can produce.
 */
export type JsonValue = null | boolean | number | string | JsonArray | JsonObject

/** A JSON array. */
export type JsonArray = JsonValue[]

/** A JSON object (string keys only). */
export type JsonObject = { [key: string]: JsonValue }

/** A scalar JSON value usable in `enum` / `const`. */
export type JsonScalar = null | boolean | number | string

/** The JSON Schema `type` names. */
export type JsonSchemaTypeName = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'object' | 'array'

/**
 * A JSON Schema in a subschema position: a schema object or a boolean schema (`true` accepts
 * every JSON value, `false` none).
 */
export type JsonSchema = JsonSchemaNode | boolean

/**
 * A JSON Schema object (draft-04, draft-06, draft-07, 2019-09 or 2020-12; the dialect comes from
 * `$schema`, default 2020-12; OpenAPI 3.0's `nullable` and boolean exclusive bounds are read in
 * every dialect). Every keyword of SPEC §9 is typed here; any other key is an unknown keyword, which
 * validation ignores and `lintSchema` reports. `assertSupportedJsonSchema` checks that the
 * keywords are well-formed.
 *
 * - `{}` (annotations only) accepts any JSON value.
 * - Objects are open unless `additionalProperties` says otherwise.
 * - Annotations (`title`, `description`, `default`, `examples`, `deprecated`, `readOnly`,
 *   `writeOnly`, `$comment`) never affect validation; `format` is an annotation unless the
 *   validator is compiled with `{ formats: 'assert' }`.
 */
export interface JsonSchemaNode {
  $schema?: string
  $id?: string
  /** draft-04 spelling of `$id`, read only in draft-04 documents. */
  id?: string
  $comment?: string
  $ref?: string
  $anchor?: string
  $defs?: { [name: string]: JsonSchema }
  /** draft-07 spelling of `$defs`; accepted in every dialect. */
  definitions?: { [name: string]: JsonSchema }
  type?: JsonSchemaTypeName | JsonSchemaTypeName[]
  enum?: JsonValue[]
  const?: JsonValue
  anyOf?: JsonSchema[]
  allOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  not?: JsonSchema
  if?: JsonSchema
  then?: JsonSchema
  else?: JsonSchema
  minimum?: number
  maximum?: number
  /**
   * A number (draft-06 and later), or the draft-04 / OpenAPI 3.0 boolean that makes `minimum`
   * exclusive (read in every dialect; `normalizeSchema` rewrites it to the number form).
   */
  exclusiveMinimum?: number | boolean
  /** As `exclusiveMinimum`, for `maximum`. */
  exclusiveMaximum?: number | boolean
  multipleOf?: number
  /** Bounds in Unicode code points. */
  minLength?: number
  maxLength?: number
  /** An ECMAScript regular expression (compiled with the `u` flag), unanchored. */
  pattern?: string
  format?: string
  /** 2020-12: schema for the items after `prefixItems`. draft-07/2019-09: a schema or a tuple. */
  items?: JsonSchema | JsonSchema[]
  prefixItems?: JsonSchema[]
  /** draft-07/2019-09: items after an array-form `items`. */
  additionalItems?: JsonSchema
  minItems?: number
  maxItems?: number
  uniqueItems?: boolean
  contains?: JsonSchema
  minContains?: number
  maxContains?: number
  properties?: { [key: string]: JsonSchema }
  required?: string[]
  additionalProperties?: JsonSchema
  patternProperties?: { [pattern: string]: JsonSchema }
  propertyNames?: JsonSchema
  minProperties?: number
  maxProperties?: number
  dependentRequired?: { [key: string]: string[] }
  dependentSchemas?: { [key: string]: JsonSchema }
  /** draft-07: `dependentRequired` (array) and `dependentSchemas` (schema) in one keyword. */
  dependencies?: { [key: string]: JsonSchema | string[] }
  /** Refused by the validator (registration error); typed so that such schemas can be described. */
  unevaluatedProperties?: JsonSchema
  /** Refused by the validator (registration error); typed so that such schemas can be described. */
  unevaluatedItems?: JsonSchema
  /** OpenAPI 3.0 / Gemini: this schema, or `null` (read in every dialect; ignored beside `$ref` up to draft-07). */
  nullable?: boolean
  title?: string
  description?: string
  default?: JsonValue
  examples?: JsonValue[]
  deprecated?: boolean
  readOnly?: boolean
  writeOnly?: boolean
  /** Unknown keywords (extensions such as `x-…`): ignored by validation, reported by `lintSchema`. */
  [keyword: string]: unknown
}

/** A `JsonSchemaNode` whose root is an object schema (tool parameters, subagent inputs). */
export type ObjectJsonSchema = JsonSchemaNode & { type: 'object' }

/**
 * One validation failure. `path` is a JSONPath-like location: `$` for the root,
 * `$.items[3].name` for nested members, `$["a b"]` for keys that are not identifiers.
 */
export interface SchemaViolation {
  path: string
  message: string
}

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

/** The `type` names allowed in the enforced raw JSON Schema subset. */
export type JsonSchemaTypeName = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'object' | 'array'

/**
 * A node of the enforced raw JSON Schema subset (see `assertSupportedJsonSchema`).
 *
 * - `{}` (annotations only) accepts any JSON value.
 * - One scalar `type`; `object` may carry `properties`, `required` and a boolean
 *   `additionalProperties` (open unless `false`); `array` may carry `items`.
 * - Type-correct scalar `enum` / `const`; exact-one `oneOf` with at least two branches.
 * - Annotations `title`, `description`, `default`, `examples` (lossless JSON) and a boolean
 *   `deprecated`; they never affect validation.
 */
export interface JsonSchemaNode {
  type?: JsonSchemaTypeName
  properties?: { [key: string]: JsonSchemaNode }
  required?: string[]
  additionalProperties?: boolean
  items?: JsonSchemaNode
  enum?: JsonScalar[]
  const?: JsonScalar
  oneOf?: JsonSchemaNode[]
  title?: string
  description?: string
  default?: JsonValue
  examples?: JsonValue[]
  deprecated?: boolean
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

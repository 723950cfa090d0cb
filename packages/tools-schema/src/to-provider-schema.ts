import { convertGemini } from './internal/provider/gemini'
import { convertOpenAiStrict } from './internal/provider/openai-strict'
import { rewriteTree } from './internal/provider/rewrite-tree'
import { notASchema } from './internal/provider/schema-shape'
import { rootPointerRefs } from './internal/root-pointer-refs'
import { snapshotJson } from './snapshot-json'
import type { JsonObject, JsonSchemaNode, JsonValue } from './types'

/**
 * The schema dialect of a model provider:
 * - `openai-strict`: OpenAI strict function calling / structured outputs;
 * - `gemini`: Gemini function declarations (its OpenAPI 3.0 subset);
 * - `json-schema`: JSON Schema 2020-12, as is.
 */
export type ProviderDialect = 'openai-strict' | 'gemini' | 'json-schema'

/** The provider dialects, in a stable order. */
export const PROVIDER_DIALECTS: readonly ProviderDialect[] = Object.freeze([
  'openai-strict',
  'gemini',
  'json-schema',
])

/** One difference between the canonical schema and the provider's: where (`$.properties.a`) and what. */
export interface ProviderSchemaChange {
  readonly path: string
  readonly change: string
}

/** What `toProviderSchema` returns: the provider's schema and every change it made, in walk order. */
export interface ProviderSchema {
  readonly schema: JsonValue
  readonly changes: readonly ProviderSchemaChange[]
}

/**
 * Convert a canonical JSON Schema (a tool's parameters) to a provider dialect. Pure and
 * stack-safe (an explicit work stack; inlining is capped at 200,000 output nodes).
 *
 * - `openai-strict`: every property required, optional ones nullable (a `null` for them is read
 *   back as absent by `providerArgsToCanonical`), `additionalProperties: false` everywhere,
 *   `oneOf` → `anyOf`, type lists → `anyOf`, `definitions` → `$defs`, unsupported keywords
 *   folded into descriptions, free-form values (any JSON, dictionaries, nodes shaped only by
 *   keywords strict mode lacks) sent as JSON strings.
 * - `gemini`: upper-case types, `$ref` inlined (recursion cut after 3 levels and sent as a JSON
 *   string), type lists → `nullable`/`anyOf`, non-string enums and unsupported keywords folded
 *   into descriptions, `properties`/`required` kept on `OBJECT` only, free-form values and
 *   objects without properties sent as JSON strings.
 *
 * In both, free-form parameters stay an object at the root, and a union whose branches only
 * narrow the node's own shape is folded into the description.
 * - `json-schema`: a frozen copy, no changes.
 *
 * Every reshaping of values is reversed by `providerArgsToCanonical`. Throws
 * `SchemaDefinitionError` for a node that is not a schema or a conversion past the node cap.
 *
 * @example
 * toProviderSchema({ type: 'object', properties: { a: { type: 'string' } } }, 'openai-strict').schema
 * // → { type: 'object', properties: { a: { type: ['string', 'null'] } }, required: ['a'], additionalProperties: false }
 */
export function toProviderSchema(
  schema: JsonSchemaNode | JsonValue,
  dialect: ProviderDialect,
): ProviderSchema {
  if (
    typeof schema !== 'boolean' &&
    (typeof schema !== 'object' || schema === null || Array.isArray(schema))
  ) {
    notASchema('$', schema)
  }
  if (dialect === 'json-schema')
    return Object.freeze({ schema: snapshotJson(schema), changes: Object.freeze([]) })
  const convert =
    dialect === 'openai-strict' ? convertOpenAiStrict : dialect === 'gemini' ? convertGemini : undefined
  if (convert === undefined) throw new TypeError(`unknown provider dialect: ${String(dialect)}`)
  // The converters follow `$ref` as root pointers: URI refs into nested `$id` resources become those.
  const { schema: converted, changes } = rewriteTree(rootPointerRefs(schema), convert)
  return Object.freeze({
    schema: snapshotJson(converted) as JsonObject,
    changes: Object.freeze(changes.map((change) => Object.freeze(change))),
  })
}

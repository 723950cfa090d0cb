import { UnsupportedJsonSchemaError } from './errors'
import { compileSchema } from './internal/compile-schema'
import { describeScalar } from './internal/describe'
import type { JsonSchema, ObjectJsonSchema } from './types'

/**
 * The registration gate: asserts that `node` is a well-formed JSON Schema the validator can run
 * — JSON (no cycles, accessors, symbol keys), a supported dialect (`$schema` draft-04, draft-06,
 * draft-07, 2019-09 or 2020-12), every keyword of the right shape (types, non-negative bounds, positive
 * `multipleOf`, string arrays for `required`…), every `pattern` a valid `u`-flag RegExp, every
 * `$ref` local and resolvable, no `$ref`/applicator loop that never descends into the value,
 * and no `unevaluatedProperties` / `unevaluatedItems` (unsupported, refused rather than
 * ignored). Unknown keywords are allowed (see `lintSchema`). Throws `UnsupportedJsonSchemaError`
 * with the path of the first problem. Stack-safe for any nesting depth.
 */
export function assertSupportedJsonSchema(node: unknown): asserts node is JsonSchema {
  compileSchema(node)
}

/**
 * Asserts `node` is a well-formed JSON Schema object whose root is `type: 'object'`
 * (tool parameters, subagent and workflow inputs). Throws `UnsupportedJsonSchemaError`.
 */
export function assertObjectJsonSchema(node: unknown): asserts node is ObjectJsonSchema {
  if (typeof node !== 'object' || node === null || Array.isArray(node))
    throw new UnsupportedJsonSchemaError('$', 'expected an object root schema (type "object")')
  assertSupportedJsonSchema(node)
  const type = (node as { type?: unknown }).type
  if (type !== 'object') {
    throw new UnsupportedJsonSchemaError(
      '$',
      `expected an object root schema (type "object"), got ${describeScalar(type)}`,
    )
  }
}

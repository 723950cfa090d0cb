import { checkerBudget } from './internal/checker-budget'
import { compileSchema } from './internal/compile-schema'
import { compilePredicate } from './internal/jit-checker'
import { findJsonProblem } from './internal/json-check'
import { beginValidation, endValidation } from './internal/json-intern'
import { formatSegment } from './internal/path'
import { runChecker } from './internal/run-checker'
import type { SchemaNode } from './internal/schema-node'
import type { ParameterSchemaSpec, ValueSchemaSpec } from './schema-spec'
import type { JsonSchema, SchemaViolation } from './types'
import {
  parameterSchemaSpecToJsonSchema,
  valueSchemaSpecToJsonSchema,
} from './value-schema-spec-to-json-schema'

/** A compiled validator: returns the violations of `value` (empty when valid). */
export type SchemaValidator = (value: unknown) => SchemaViolation[]

/** Options of `compileJsonSchemaValidator`. */
export interface JsonSchemaValidatorOptions {
  /**
   * `'annotate'` (default): `format` is an annotation. `'assert'`: date-time, date, time,
   * duration, email, hostname, ipv4, ipv6, uri, uri-reference, uuid and regex are checked
   * (other format names stay annotations).
   */
  readonly formats?: 'annotate' | 'assert'
}

// Each entry point takes exactly one kind of schema: `{}` is both an empty parameter spec and
// the any-JSON node, so no function here may look at a schema and decide what it is.

function validatorFor(root: SchemaNode, recursive: boolean): SchemaValidator {
  const fast = compilePredicate(root)
  // Canonical ids (uniqueItems, enum of containers) are shared by one validation and dropped after it.
  return (value) => {
    const outer = beginValidation()
    try {
      return validate(value)
    } finally {
      endValidation(outer)
    }
  }
  function validate(value: unknown): SchemaViolation[] {
    if (fast !== null) {
      try {
        if (fast(value)) return []
      } catch {
        // Too deep for the generated code, or a hostile accessor threw: the interpreter decides.
      }
    }
    if (recursive) {
      // A recursive schema could follow a cyclic value forever: refuse non-JSON values first.
      const problem = findJsonProblem(value)
      if (problem !== undefined) {
        let path = '$'
        for (const segment of problem.segments) path += formatSegment(segment)
        return [{ path, message: problem.message }]
      }
    }
    return runChecker(root, value, checkerBudget(value))
  }
}

function compileNode(node: unknown, options: JsonSchemaValidatorOptions = {}): SchemaValidator {
  const compiled = compileSchema(node, options)
  return validatorFor(compiled.root, compiled.recursive)
}

/**
 * Compiles a JSON Schema (draft-04, draft-06, draft-07, 2019-09 or 2020-12 by `$schema`, default
 * 2020-12; OpenAPI's `nullable` and boolean exclusive bounds read in every dialect; a schema
 * object or a boolean schema) into a validator. The schema is checked first exactly as
 * `assertSupportedJsonSchema` does (throws `UnsupportedJsonSchemaError` with a path). Valid
 * values take a generated fast path; invalid ones are explained by a stack-safe interpreter.
 */
export function compileJsonSchemaValidator(
  node: JsonSchema,
  options: JsonSchemaValidatorOptions = {},
): SchemaValidator {
  return compileNode(node, options)
}

/**
 * Compiles a `ParameterSchemaSpec` (the implicit, open parameter object; `{}` is an object with
 * no declared fields) through `parameterSchemaSpecToJsonSchema`. Throws `SchemaDefinitionError`.
 */
export function compileParameterSpecValidator(spec: ParameterSchemaSpec): SchemaValidator {
  return compileNode(parameterSchemaSpecToJsonSchema(spec))
}

/**
 * Compiles a `ValueSchemaSpec` (any JSON root; `{ type: 'json' }` accepts any JSON value)
 * through `valueSchemaSpecToJsonSchema`. Throws `SchemaDefinitionError`.
 */
export function compileValueSpecValidator(spec: ValueSchemaSpec): SchemaValidator {
  return compileNode(valueSchemaSpecToJsonSchema(spec))
}

import { countNoun } from './internal/count-noun'
import type { SchemaViolation } from './types'

const TOOLS_ERROR_BRAND = Symbol.for('dsh-tools.error')

/** Error codes raised by `@dsh/tools-schema`. */
export const TOOLS_SCHEMA_ERROR_CODES = {
  INVALID_ARGS: 'INVALID_ARGS',
  LOSSY_JSON: 'LOSSY_JSON',
  INVALID_SCHEMA_DEFINITION: 'INVALID_SCHEMA_DEFINITION',
  UNSUPPORTED_JSON_SCHEMA: 'UNSUPPORTED_JSON_SCHEMA',
  JSON_BUDGET_EXCEEDED: 'JSON_BUDGET_EXCEEDED',
} as const

/**
 * Base class of every dsh-tools error. Carries a stable `code`, a `name` equal to the
 * concrete class name and a `Symbol.for('dsh-tools.error')` brand so that two copies of
 * the package still recognise each other's errors (see `isToolsError`).
 */
export class ToolsError extends Error {
  /** Stable machine-readable error code, e.g. `INVALID_ARGS`. */
  readonly code: string

  constructor(code: string, message: string, options?: ErrorOptions) {
    super(message, options)
    this.code = code
    this.name = new.target.name
    Object.defineProperty(this, TOOLS_ERROR_BRAND, { value: true })
  }
}

/** True when `value` is a `ToolsError` from any copy of the dsh-tools packages. */
export function isToolsError(value: unknown): value is ToolsError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { [TOOLS_ERROR_BRAND]?: unknown })[TOOLS_ERROR_BRAND] === true
  )
}

const MAX_LISTED_VIOLATIONS = 20

/** Tool arguments failed validation (code `INVALID_ARGS`); `violations` lists every failure. */
export class ToolArgsError extends ToolsError {
  /** The path-qualified violations, in discovery order. */
  readonly violations: readonly SchemaViolation[]

  constructor(violations: readonly SchemaViolation[], options?: ErrorOptions) {
    const listed = violations.slice(0, MAX_LISTED_VIOLATIONS).map((v) => `${v.path}: ${v.message}`)
    if (violations.length > MAX_LISTED_VIOLATIONS) {
      listed.push(`… and ${violations.length - MAX_LISTED_VIOLATIONS} more`)
    }
    super(TOOLS_SCHEMA_ERROR_CODES.INVALID_ARGS, `invalid arguments: ${listed.join('; ')}`, options)
    this.violations = Object.freeze(
      violations.map((v) => Object.freeze({ path: v.path, message: v.message })),
    )
  }
}

/** A value is not lossless JSON (code `LOSSY_JSON`); `path` locates the offending member. */
export class LosslessJsonError extends ToolsError {
  /** Location of the offending member, e.g. `$.items[2]`. */
  readonly path: string

  constructor(path: string, detail: string, options?: ErrorOptions) {
    super(TOOLS_SCHEMA_ERROR_CODES.LOSSY_JSON, `${path}: ${detail}`, options)
    this.path = path
  }
}

/** A DSL schema spec is malformed (code `INVALID_SCHEMA_DEFINITION`); `path` locates it in the spec. */
export class SchemaDefinitionError extends ToolsError {
  /** Location inside the spec, e.g. `$.tags.items`. */
  readonly path: string

  constructor(path: string, detail: string, options?: ErrorOptions) {
    super(TOOLS_SCHEMA_ERROR_CODES.INVALID_SCHEMA_DEFINITION, `${path}: ${detail}`, options)
    this.path = path
  }
}

/** A raw JSON Schema uses something outside the enforced subset (code `UNSUPPORTED_JSON_SCHEMA`). */
export class UnsupportedJsonSchemaError extends ToolsError {
  /** Location inside the schema, e.g. `$.properties.name`. */
  readonly path: string

  constructor(path: string, detail: string, options?: ErrorOptions) {
    super(TOOLS_SCHEMA_ERROR_CODES.UNSUPPORTED_JSON_SCHEMA, `${path}: ${detail}`, options)
    this.path = path
  }
}

/** Which budget of `snapshotJson` a value exceeded. */
export type JsonBudgetLimit = 'maxNodes' | 'maxStringLength' | 'maxDepth'

/**
 * A value is larger than a `snapshotJson` budget allows (code `JSON_BUDGET_EXCEEDED`). Counting
 * stops at the first member past the budget: `path` locates it, `limit` names the budget and
 * `max` is its value. Shared references count once per occurrence.
 */
export class JsonBudgetError extends ToolsError {
  /** Location of the member at which the budget ran out, e.g. `$.v[0][1]`. */
  readonly path: string
  /** The budget that was exceeded. */
  readonly limit: JsonBudgetLimit
  /** The budget's value. */
  readonly max: number

  constructor(path: string, limit: JsonBudgetLimit, max: number, options?: ErrorOptions) {
    const what =
      limit === 'maxNodes'
        ? countNoun(max, 'JSON value')
        : limit === 'maxDepth'
          ? countNoun(max, 'nested container')
          : countNoun(max, 'string code unit')
    super(
      TOOLS_SCHEMA_ERROR_CODES.JSON_BUDGET_EXCEEDED,
      `${path}: value exceeds ${limit} (more than ${what}; shared references count at every occurrence)`,
      options,
    )
    this.path = path
    this.limit = limit
    this.max = max
  }
}

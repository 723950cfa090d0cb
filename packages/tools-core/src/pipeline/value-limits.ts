/**
 * Bounds on a value entering the host through the pipeline (model arguments and tool results),
 * measured in the one pass `snapshotJson` makes before anything worse than linear runs. Within
 * them, every later stage is linear in the value for any schema registration accepts (regular
 * expressions run in a linear-time engine, `uniqueItems` and `enum` compare canonical tokens).
 */
export interface ValueLimits {
  /** Most JSON values (every scalar and container; each object member is one). */
  readonly maxNodes: number
  /** Most containers nested inside one another (a scalar 0, `[]` 1, `[[1]]` 2). */
  readonly maxDepth: number
  /** Most UTF-16 code units in string values and object keys together. */
  readonly maxStringLength: number
}

/**
 * The defaults. 500,000 values is about 4–8 MB of typical JSON (a 1 MB argument has well under
 * 200,000), and snapshotting plus validating that many costs the host a few hundred ms on one
 * core; 128 levels is serde_json's default recursion limit and far past anything a model writes;
 * 16 Mi code units keeps the linear regex engine's worst case on all strings together well
 * under a second. Code Mode sub-calls keep Code Mode's own argument budgets (measured where
 * their values enter the host); their results are bounded here like every result.
 */
export const DEFAULT_VALUE_LIMITS: ValueLimits = Object.freeze({
  maxNodes: 500_000,
  maxDepth: 128,
  maxStringLength: 16 * 1024 * 1024,
})

const limit = (minimum: number, fallback: number, description: string) =>
  ({ type: 'integer', minimum, maximum: Number.MAX_SAFE_INTEGER, default: fallback, description }) as const

/** The spec of `valueLimits`: each key may be set on its own, the others keep their defaults. */
export const valueLimitsSpec = {
  type: 'object',
  additionalProperties: false,
  default: {},
  description:
    'bounds of model arguments (`INVALID_ARGS` past one) and tool results (`INVALID_OUTPUT`), checked before validation',
  properties: {
    maxNodes: limit(
      1,
      DEFAULT_VALUE_LIMITS.maxNodes,
      'JSON values (every scalar and container; each object member is one)',
    ),
    maxDepth: limit(0, DEFAULT_VALUE_LIMITS.maxDepth, 'containers nested inside one another'),
    maxStringLength: limit(
      0,
      DEFAULT_VALUE_LIMITS.maxStringLength,
      'UTF-16 code units in string values and object keys together',
    ),
  },
} as const

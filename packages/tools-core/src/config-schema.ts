/**
 * A tiny helper for plugin authors: cordis validates plugin config with a Standard Schema
 * (v1), and most tool plugins validate by hand, so this wraps a validating function as one.
 */

/** A structural Standard Schema v1: what cordis validates plugin config with. */
export interface StandardConfigSchema<Input, Output> {
  readonly '~standard': {
    readonly version: 1
    readonly vendor: string
    validate(value: unknown): ConfigValidationResult<Output>
    readonly types?: { readonly input: Input; readonly output: Output }
  }
}

/** One config problem, with the path of the offending key. */
export interface ConfigIssue {
  readonly message: string
  readonly path?: readonly PropertyKey[]
}

/** The outcome of validating a config: the filled-in value, or the issues found. */
export type ConfigValidationResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: readonly ConfigIssue[] }

/**
 * Wrap a validating function as a Standard Schema (vendor `dsh`) for a plugin's `Config`.
 *
 * @example
 * export const Config = standardConfigSchema<{ limit?: number }, { limit: number }>((value) => {
 *   const limit = (value as { limit?: unknown } | undefined)?.limit ?? 10
 *   return Number.isInteger(limit) ? { value: { limit: limit as number } } : { issues: [{ message: 'limit must be an integer', path: ['limit'] }] }
 * })
 */
export function standardConfigSchema<Input, Output>(
  validate: (value: unknown) => ConfigValidationResult<Output>,
): StandardConfigSchema<Input, Output> {
  return Object.freeze({ '~standard': Object.freeze({ version: 1 as const, vendor: 'dsh', validate }) })
}

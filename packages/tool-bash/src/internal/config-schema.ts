/** A structural Standard Schema v1 (what cordis validates plugin config with). */
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

/** The outcome of validating a config. */
export type ConfigValidationResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: readonly ConfigIssue[] }

/** Wrap a validating function as a Standard Schema (vendor `dsh`). */
export function standardConfigSchema<Input, Output>(
  validate: (value: unknown) => ConfigValidationResult<Output>,
): StandardConfigSchema<Input, Output> {
  return Object.freeze({ '~standard': Object.freeze({ version: 1 as const, vendor: 'dsh', validate }) })
}

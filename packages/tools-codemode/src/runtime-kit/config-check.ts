/**
 * What a runtime's config shares with every other runtime: the timer ceiling of its time budgets,
 * and the `{ ok }` form of a check for direct use (a runtime declares its config with
 * `configSchema`, so the rules and their wording are the schema DSL's, the same as argument errors).
 */
import type { ConfigSchema } from '@dsh/tools-schema'

export { type ConfigSchema, configSchema } from '@dsh/tools-schema'

/** Largest delay a Node timer accepts (2^31 - 1 ms): the ceiling of every time budget. */
export const MAX_TIMER_MS = 2_147_483_647

/** Result of {@link checkConfig}: the resolved config, or every problem found. */
export type ConfigCheck<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: readonly string[] }

/**
 * Validate `input` with a runtime's config schema without throwing: the resolved (defaults
 * applied, frozen) config, or every issue's message (`$.computeMs: expected number >= 1, got 0`).
 */
export function checkConfig<T>(schema: ConfigSchema<unknown, T>, input: unknown): ConfigCheck<T> {
  const result = schema['~standard'].validate(input)
  return result.issues === undefined
    ? { ok: true, value: result.value }
    : { ok: false, issues: result.issues.map((issue) => issue.message) }
}

/**
 * Validate `input` with a runtime's config schema and return the resolved config (defaults
 * applied, frozen): a runtime's `resolve…Config`, for direct use without cordis.
 * @throws the error `toError` makes of every issue's message (a runtime's `CodeRuntimeConfigError`).
 */
export function resolveConfig<T>(
  schema: ConfigSchema<unknown, T>,
  input: unknown,
  toError: (issues: readonly string[]) => Error,
): T {
  const check = checkConfig(schema, input)
  if (!check.ok) throw toError(check.issues)
  return check.value
}

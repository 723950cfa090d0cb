/**
 * Validation of a runtime's flat options object (every option an integer in a range or one of a
 * fixed set of names), with the same wording in every runtime, plus the Standard Schema object
 * cordis applies to plugin config. A runtime declares its defaults and one rule per key.
 */

/** Largest delay a Node timer accepts (2^31 - 1 ms): the ceiling of every time budget. */
export const MAX_TIMER_MS = 2_147_483_647

/** How one option is checked: an integer within `[min, max]`, or one of `values`. */
export type OptionRule =
  | { readonly kind: 'integer'; readonly min: number; readonly max: number }
  | { readonly kind: 'choice'; readonly values: readonly string[] }

/** An integer option between `min` and `max`, both included. */
export function integerOption(min: number, max: number): OptionRule {
  if (!Number.isInteger(min) || !Number.isInteger(max) || min > max) {
    throw new RangeError(`integerOption needs integer bounds with min <= max (got ${min}, ${max})`)
  }
  return Object.freeze({ kind: 'integer', min, max })
}

/** An option whose value must be one of `values`. */
export function choiceOption(values: readonly string[]): OptionRule {
  return Object.freeze({ kind: 'choice', values: Object.freeze([...values]) })
}

/** The rules of a config whose resolved form is `T`: one per key. */
export type OptionRules<T> = { readonly [K in keyof T]-?: OptionRule }

/** Result of {@link checkOptions}: the resolved config, or every problem found. */
export type ConfigCheck<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: readonly string[] }

/** The problem with `raw` under `rule` (named `key`), or `undefined` when it passes. */
export function optionIssue(key: string, rule: OptionRule, raw: unknown): string | undefined {
  if (rule.kind === 'choice') {
    return typeof raw === 'string' && rule.values.includes(raw)
      ? undefined
      : `${key} must be one of ${rule.values.map((name) => `"${name}"`).join(', ')}`
  }
  return typeof raw === 'number' && Number.isInteger(raw) && raw >= rule.min && raw <= rule.max
    ? undefined
    : `${key} must be an integer between ${rule.min} and ${rule.max}`
}

/**
 * Validate `input` against `rules` without throwing and apply `defaults`. `undefined` or `null`
 * resolves to the defaults; unknown (or inherited-only) keys, and values that break their rule,
 * are issues; an option given as `undefined` keeps its default. The resolved value is frozen.
 */
export function checkOptions<T extends object>(
  input: unknown,
  defaults: T,
  rules: OptionRules<T>,
): ConfigCheck<T> {
  if (input === undefined || input === null) return { ok: true, value: defaults }
  if (typeof input !== 'object' || Array.isArray(input)) {
    return { ok: false, issues: ['config must be an object'] }
  }
  const issues: string[] = []
  const value: Record<string, unknown> = { ...(defaults as Record<string, unknown>) }
  for (const key of Object.keys(input)) {
    if (!Object.hasOwn(rules, key)) {
      issues.push(`unknown option "${key}"`)
      continue
    }
    const raw = (input as Record<string, unknown>)[key]
    if (raw === undefined) continue
    const issue = optionIssue(key, (rules as Record<string, OptionRule>)[key]!, raw)
    if (issue === undefined) value[key] = raw
    else issues.push(issue)
  }
  if (issues.length > 0) return { ok: false, issues }
  return { ok: true, value: Object.freeze(value) as T }
}

/** The subset of the Standard Schema v1 interface that cordis uses to validate plugin config. */
export interface StandardConfigSchema<Input, Output> {
  readonly '~standard': {
    readonly version: 1
    readonly vendor: string
    readonly validate: (
      value: unknown,
    ) =>
      | { readonly value: Output; readonly issues?: undefined }
      | { readonly issues: readonly { readonly message: string }[] }
    readonly types?: { readonly input: Input; readonly output: Output } | undefined
  }
}

/** A frozen Standard Schema validator (a service's static `Config`) built on a runtime's `check`. */
export function createConfigSchema<Input, Output>(
  vendor: string,
  check: (value: unknown) => ConfigCheck<Output>,
): StandardConfigSchema<Input | undefined, Output> {
  return Object.freeze({
    '~standard': Object.freeze({
      version: 1 as const,
      vendor,
      validate(value: unknown) {
        const result = check(value)
        return result.ok ? { value: result.value } : { issues: result.issues.map((message) => ({ message })) }
      },
    }),
  })
}

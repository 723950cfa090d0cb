import { compileJsonSchemaValidator } from './compile-validator'
import type { ConfigObjectSpec, InferConfigSide } from './config-spec'
import { SchemaDefinitionError } from './errors'
import { compileConfigSpec } from './internal/compile-config-spec'
import { fillConfigDefaults, prepareConfigValue } from './internal/config-value'
import { narrowUnionViolations } from './internal/narrow-union-violations'
import { parsePath } from './internal/parse-path'
import { formatSegment } from './internal/path'
import type { JsonSchemaNode, SchemaViolation } from './types'

/** One config problem (Standard Schema issue): `message` reads `$.city: expected string, got number`. */
export interface ConfigSchemaIssue {
  readonly message: string
  /** The keys leading to the offending value (absent for the config itself). */
  readonly path?: readonly (string | number)[]
}

/** The outcome of validating a config: the filled-in value, or every issue found. */
export type ConfigSchemaResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: readonly ConfigSchemaIssue[] }

/** A problem a `check` hook finds: where, and what (worded like the validator's). */
export interface ConfigProblem {
  readonly path: readonly (string | number)[]
  readonly message: string
}

/** `undefined` when a config may be left out (no field is required), else `never`. */
type OmittedConfig<S> = S extends { readonly properties: infer P }
  ? { [K in keyof P]: P[K] extends { readonly required: true } ? K : never }[keyof P] extends never
    ? undefined
    : never
  : undefined

/** The JSON Schema dialects `~standard.jsonSchema` writes (Standard JSON Schema `target`). */
export type ConfigJsonSchemaTarget = 'draft-2020-12' | 'draft-07'

/**
 * A plugin config schema: Standard Schema v1 (`~standard.validate`, what cordis runs on a
 * plugin's `Config`) and Standard JSON Schema v1 (`~standard.jsonSchema`).
 */
export interface ConfigSchema<Input, Output> {
  readonly '~standard': {
    readonly version: 1
    readonly vendor: string
    readonly validate: (value: unknown) => ConfigSchemaResult<Output>
    readonly types?: { readonly input: Input; readonly output: Output }
    readonly jsonSchema: {
      /** The JSON Schema of what a user writes (fields with a default optional). */
      readonly input: (options: { readonly target: string }) => Record<string, unknown>
      /** The JSON Schema of what the plugin gets (fields with a default required). */
      readonly output: (options: { readonly target: string }) => Record<string, unknown>
    }
  }
}

/** Hooks for what the spec cannot say; both run only on a config the spec accepted, defaults filled. */
export interface ConfigSchemaOptions<Filled, Output> {
  /**
   * Rules across fields (e.g. `defaultTimeoutMs` ≤ `maxTimeoutMs`); each problem becomes an
   * issue in the shared form.
   */
  readonly check?: (config: Filled) => readonly ConfigProblem[]
  /**
   * The final shape (e.g. relative paths made absolute, a default computed at start-up such as
   * `process.cwd()`). It must accept its own output, so a resolved config validates to itself.
   */
  readonly resolve?: (config: Filled) => Output
}

const DIALECTS: Readonly<Record<ConfigJsonSchemaTarget, string>> = {
  'draft-2020-12': 'https://json-schema.org/draft/2020-12/schema',
  'draft-07': 'http://json-schema.org/draft-07/schema#',
}

function issueOf(violation: SchemaViolation): ConfigSchemaIssue {
  const message = `${violation.path}: ${violation.message}`
  return violation.path === '$' ? { message } : { message, path: parsePath(violation.path) }
}

/** A copy in which every object's fields with a default are also required (the output side). */
function withDefaultsRequired(node: JsonSchemaNode): Record<string, unknown> {
  const copy = structuredClone(node) as Record<string, unknown>
  // Only schema positions are walked: a default's own keys are data, never keywords.
  const stack: Record<string, unknown>[] = [copy]
  while (stack.length > 0) {
    const schema = stack.pop()!
    const properties = schema.properties as Record<string, Record<string, unknown>> | undefined
    if (properties !== undefined) {
      const required = new Set((schema.required as string[] | undefined) ?? [])
      for (const [key, field] of Object.entries(properties)) {
        if (field.default !== undefined) required.add(key)
        stack.push(field)
      }
      if (required.size > 0) schema.required = [...required]
    }
    for (const key of ['items', 'additionalProperties'])
      if (typeof schema[key] === 'object' && schema[key] !== null)
        stack.push(schema[key] as Record<string, unknown>)
    for (const key of ['oneOf', 'anyOf'])
      if (Array.isArray(schema[key])) stack.push(...(schema[key] as Record<string, unknown>[]))
  }
  return copy
}

/**
 * Declares a plugin config in the schema DSL and returns it as a Standard Schema v1 value for
 * cordis' `Config` (a plugin's `export const Config` or a service's `static Config`).
 *
 * - `undefined` and `null` mean `{}`; a key set to `undefined` means the key is absent.
 * - A field's `default` IS applied (unlike argument specs), also inside nested objects and the
 *   first `oneOf` / `anyOf` branch that accepts the value; the result is frozen.
 * - `additionalProperties: false` refuses unknown keys; every DSL bound is enforced.
 * - Issues read like argument errors, `$.city: expected string, got number`, with `path` keys.
 * - `~standard.jsonSchema.input` / `.output` give the JSON Schema (targets `draft-2020-12` and
 *   `draft-07`; any other throws), `host` fields as description-only nodes.
 * - Values that are not JSON take a `{ type: 'host', description, is }` spec: the only escape hatch.
 *
 * Throws `SchemaDefinitionError` for a malformed spec (as the DSL compiler does).
 *
 * @example
 * export const Config = configSchema({
 *   type: 'object',
 *   additionalProperties: false,
 *   properties: {
 *     maxReadLines: { type: 'integer', minimum: 1, default: 2000, description: 'Lines per read.' },
 *     tracer: { type: 'host', description: 'an OpenTelemetry Tracer', is: isTracer },
 *   },
 * })
 */
export function configSchema<const S extends ConfigObjectSpec, Output = InferConfigSide<S, 'output'>>(
  spec: S,
  options: ConfigSchemaOptions<InferConfigSide<S, 'output'>, Output> = {},
): ConfigSchema<InferConfigSide<S, 'input'> | OmittedConfig<S>, Output> {
  const compiled = compileConfigSpec(spec)
  if (compiled.validation.type !== 'object')
    throw new SchemaDefinitionError('$.type', 'a config spec is an object spec')
  const validator = compileJsonSchemaValidator(compiled.validation)
  const { check, resolve } = options

  function validate(input: unknown): ConfigSchemaResult<Output> {
    try {
      const prepared = prepareConfigValue(input ?? {}, compiled.validation, compiled.hosts)
      const violations = [
        ...prepared.problems,
        ...narrowUnionViolations(validator(prepared.value), compiled.validation, prepared.value),
      ]
      if (violations.length > 0) return { issues: violations.map(issueOf) }
      const filled = fillConfigDefaults(prepared, compiled.validation) as InferConfigSide<S, 'output'>
      const problems = check?.(filled) ?? []
      if (problems.length > 0) {
        return {
          issues: problems.map(({ path, message }) =>
            issueOf({ path: `$${path.map(formatSegment).join('')}`, message }),
          ),
        }
      }
      return { value: resolve === undefined ? (filled as unknown as Output) : resolve(filled) }
    } catch (error) {
      // A hostile getter or a throwing `is` / hook: an issue, never a crash of the host.
      return { issues: [{ message: `$: ${error instanceof Error ? error.message : String(error)}` }] }
    }
  }

  function jsonSchema(side: 'input' | 'output') {
    return ({ target }: { readonly target: string }): Record<string, unknown> => {
      const dialect = DIALECTS[target as ConfigJsonSchemaTarget]
      if (dialect === undefined || !Object.hasOwn(DIALECTS, target))
        throw new TypeError(
          `unsupported JSON Schema target ${JSON.stringify(target)}; expected "draft-2020-12" or "draft-07"`,
        )
      const body =
        side === 'input'
          ? (structuredClone(compiled.published) as Record<string, unknown>)
          : withDefaultsRequired(compiled.published)
      return { $schema: dialect, ...body }
    }
  }

  return Object.freeze({
    '~standard': Object.freeze({
      version: 1 as const,
      vendor: 'dsh',
      validate,
      jsonSchema: Object.freeze({ input: jsonSchema('input'), output: jsonSchema('output') }),
    }),
  })
}

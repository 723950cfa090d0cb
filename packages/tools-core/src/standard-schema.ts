import { type JsonValue, SchemaDefinitionError, snapshotJson } from '@dsh/tools-schema'
import type { ArgumentsParse } from './types'

/**
 * The Standard Schema v1 interface (https://standardschema.dev), written out here so that
 * tools-core depends on no schema library: zod 4, valibot and arktype values all carry it.
 * `jsonSchema` is the optional Standard JSON Schema extension.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1
    readonly vendor: string
    validate(value: unknown): StandardResult<Output> | Promise<StandardResult<Output>>
    readonly types?: { readonly input: Input; readonly output: Output } | undefined
    readonly jsonSchema?: {
      input(options: { readonly target: string }): Record<string, unknown>
      output(options: { readonly target: string }): Record<string, unknown>
    }
  }
}

/** The result of a Standard Schema `validate`: a value, or issues with optional paths. */
export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: readonly StandardIssue[] }

/** One Standard Schema issue. */
export interface StandardIssue {
  readonly message: string
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined
}

/** The input type of a Standard Schema. */
export type StandardInput<S> = S extends StandardSchemaV1<infer I, unknown> ? I : never
/** The output type of a Standard Schema (what a tool body receives). */
export type StandardOutput<S> = S extends StandardSchemaV1<unknown, infer O> ? O : never

/**
 * A library's JSON Schema converter, passed explicitly when a Standard Schema has no
 * `~standard.jsonSchema`, e.g. `(schema, io) => z.toJSONSchema(schema, { io })`.
 */
export type StandardJsonSchemaConverter = (schema: never, io: 'input' | 'output') => unknown

/**
 * True for a Standard Schema v1 value: an object or function whose documented `~standard`
 * property has `version: 1` and a `validate` function. A protocol check, not a shape guess.
 */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false
  const standard = (value as { '~standard'?: unknown })['~standard']
  return (
    typeof standard === 'object' &&
    standard !== null &&
    (standard as { version?: unknown }).version === 1 &&
    typeof (standard as { validate?: unknown }).validate === 'function'
  )
}

const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema'

/**
 * The JSON Schema the model sees for a Standard Schema: the explicit `converter` when given,
 * else Standard JSON Schema (`~standard.jsonSchema.input/output({ target: 'draft-2020-12' })`).
 * A 2020-12 `$schema` marker is dropped (2020-12 is the default dialect). Throws
 * `SchemaDefinitionError` at `path` when neither source exists or the result is not JSON.
 */
export function standardJsonSchema(
  schema: StandardSchemaV1,
  io: 'input' | 'output',
  converter: StandardJsonSchemaConverter | undefined,
  path: string,
): JsonValue {
  let raw: unknown
  try {
    if (converter !== undefined)
      raw = (converter as (s: unknown, io: 'input' | 'output') => unknown)(schema, io)
    else {
      const source = schema['~standard'].jsonSchema
      if (typeof source?.[io] !== 'function') {
        throw new SchemaDefinitionError(
          path,
          `this ${schema['~standard'].vendor} schema has no \`~standard.jsonSchema\`: pass the library's converter as \`toJsonSchema\``,
        )
      }
      raw = source[io]({ target: 'draft-2020-12' })
    }
  } catch (error) {
    if (error instanceof SchemaDefinitionError) throw error
    throw new SchemaDefinitionError(path, `JSON Schema conversion failed: ${(error as Error)?.message}`, {
      cause: error,
    })
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new SchemaDefinitionError(path, 'the JSON Schema conversion did not return a schema object')
  }
  const copy = { ...(raw as Record<string, unknown>) }
  if (copy.$schema === DRAFT_2020_12) delete copy.$schema
  return snapshotJson(copy)
}

function issuePath(issue: StandardIssue): string {
  let out = '$'
  for (const segment of issue.path ?? []) {
    const key = typeof segment === 'object' && segment !== null ? segment.key : segment
    if (typeof key === 'number') out += `[${key}]`
    else if (typeof key === 'string' && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)) out += `.${key}`
    else out += `[${JSON.stringify(String(key))}]`
  }
  return out
}

function toParse(result: StandardResult<unknown>): ArgumentsParse {
  if (result.issues !== undefined) {
    const violations = result.issues.map((issue) => ({
      path: issuePath(issue),
      message: String(issue.message),
    }))
    return { violations: violations.length > 0 ? violations : [{ path: '$', message: 'invalid' }] }
  }
  return { value: result.value }
}

/**
 * A mutable deep copy of frozen JSON (iterative, any depth). Some libraries (arktype morphs)
 * write their output into the input object, and the pipeline's arguments and values are
 * deep-frozen.
 */
function thaw(value: JsonValue): unknown {
  if (typeof value !== 'object' || value === null) return value
  const root: unknown = Array.isArray(value) ? [] : {}
  const stack: [JsonValue, Record<string, unknown> | unknown[]][] = [[value, root as Record<string, unknown>]]
  while (stack.length > 0) {
    const [source, target] = stack.pop()!
    for (const [key, member] of Object.entries(source as object) as [string, JsonValue][]) {
      let copy: unknown = member
      if (typeof member === 'object' && member !== null) {
        copy = Array.isArray(member) ? [] : {}
        stack.push([member, copy as Record<string, unknown>])
      }
      // An own `__proto__` key of the model's JSON must stay a plain key: assigned, it became the
      // copy's prototype and the library read its fields as inherited ones. Other keys are
      // assigned (the cheaper path, on every call of a Standard Schema tool).
      if (key === '__proto__')
        Object.defineProperty(target, key, {
          value: copy,
          enumerable: true,
          writable: true,
          configurable: true,
        })
      else (target as Record<string, unknown>)[key] = copy
    }
  }
  return root
}

/**
 * Run a Standard Schema's own `validate` (sync or async) on a mutable copy of canonical JSON
 * (model arguments, or a body's value for an output schema) and map its result to
 * {@link ArgumentsParse}: the library's output value, or its issues with `$`-paths.
 */
export function parseWithStandardSchema(
  schema: StandardSchemaV1,
  value: JsonValue,
): ArgumentsParse | Promise<ArgumentsParse> {
  const result = schema['~standard'].validate(thaw(value))
  return typeof (result as Promise<unknown>)?.then === 'function'
    ? (result as Promise<StandardResult<unknown>>).then(toParse)
    : toParse(result as StandardResult<unknown>)
}

import type {
  ArraySpecBounds,
  BooleanSchemaSpec,
  InferValue,
  IntegerSchemaSpec,
  JsonAnySchemaSpec,
  NullSchemaSpec,
  NumberSchemaSpec,
  SchemaSpecAnnotations,
  StringSchemaSpec,
} from './schema-spec'
import type { JsonValue } from './types'

/**
 * The one escape hatch for a config value that is not JSON (a `pg.Pool`, a tracer, a function,
 * a `RegExp`, a `Uint8Array` key): `is` decides whether a value is acceptable and `description`
 * says what it must be. The JSON Schema shows the field as a description-only node; an error
 * reads `$.tracer: expected <description>, got <kind>`. The value is passed through untouched
 * (not copied, not frozen). It takes no `default`: a default that is not JSON has no place in a
 * JSON Schema; compute it where the config is used.
 */
export interface HostSchemaSpec<T = unknown> {
  readonly type: 'host'
  /** What the value must be, e.g. `an OpenTelemetry Tracer (with startSpan)`; shown in errors and the JSON Schema. */
  readonly description: string
  /** Short title, copied to the JSON Schema. */
  readonly title?: string
  /** Whether `value` is acceptable; a type guard infers the field's type. */
  readonly is: ((value: unknown) => value is T) | ((value: unknown) => boolean)
}

/** JSON as `as const` writes it (readonly arrays and objects): the type of a container's default. */
export type ConfigJsonValue =
  | string
  | number
  | boolean
  | null
  | readonly ConfigJsonValue[]
  | { readonly [key: string]: ConfigJsonValue }

/** The DSL's annotations, with a `default` that may be written `as const`; a config applies it. */
export interface ConfigSpecAnnotations extends Omit<SchemaSpecAnnotations, 'default'> {
  /** Applied when the field is absent (or `undefined`); shown in the JSON Schema. */
  readonly default?: ConfigJsonValue
}

/** A string-keyed map whose values all follow `values` (JSON Schema `additionalProperties: <schema>`). */
export interface RecordSchemaSpec extends ConfigSpecAnnotations {
  readonly type: 'record'
  readonly values: ConfigValueSpec
}

/** An explicit object of a config: like the DSL's object spec, with config fields. */
export interface ConfigObjectSpec extends ConfigSpecAnnotations {
  readonly type: 'object'
  readonly properties?: { readonly [name: string]: ConfigFieldSpec }
  /** `false` refuses undeclared keys (what a plugin config wants); `true` accepts them unchecked. */
  readonly additionalProperties: boolean
}

/** An array of a config. */
export interface ConfigArraySpec extends ConfigSpecAnnotations, ArraySpecBounds {
  readonly type: 'array'
  readonly items?: ConfigValueSpec
}

/** Exactly one of the branches matches. */
export interface ConfigOneOfSpec extends ConfigSpecAnnotations {
  readonly oneOf: readonly ConfigValueSpec[]
}

/** At least one of the branches matches (defaults fill in the first that does). */
export interface ConfigAnyOfSpec extends ConfigSpecAnnotations {
  readonly anyOf: readonly ConfigValueSpec[]
}

/**
 * A value of a plugin config: the schema DSL's specs (with their bounds and annotations), plus
 * `record` maps and the `host` escape hatch for values that are not JSON. Unlike in argument
 * specs, a field's `default` IS applied when the field is absent (or `undefined`).
 */
export type ConfigValueSpec =
  | StringSchemaSpec
  | NumberSchemaSpec
  | IntegerSchemaSpec
  | BooleanSchemaSpec
  | NullSchemaSpec
  | JsonAnySchemaSpec
  | ConfigArraySpec
  | ConfigObjectSpec
  | ConfigOneOfSpec
  | ConfigAnyOfSpec
  | RecordSchemaSpec
  | HostSchemaSpec<any>

/** A field of a config object: a value spec plus `required?` (default optional). */
export type ConfigFieldSpec = ConfigValueSpec & {
  /** `true` makes the field mandatory; anything else leaves it optional. */
  readonly required?: boolean
}

type Simplify<T> = { [K in keyof T]: T[K] } & {}

/** Which side of validation a type describes: what a user writes, or what the plugin gets. */
export type Side = 'input' | 'output'

/** A field is present in the output when it is required or has a default. */
type Present<F, M extends Side> = F extends { readonly required: true }
  ? true
  : M extends 'output'
    ? F extends { readonly default: unknown }
      ? true
      : false
    : false

type InferFields<P, M extends Side> = Simplify<
  {
    readonly [K in keyof P as Present<P[K], M> extends true ? K : never]: InferConfigSide<P[K], M>
  } & {
    readonly [K in keyof P as Present<P[K], M> extends true ? never : K]?: InferConfigSide<P[K], M>
  }
>

/** @internal The inferred config of one side; use `InferConfig` / `InferConfigInput`. */
export type InferConfigSide<S, M extends Side> = [ConfigValueSpec] extends [S]
  ? unknown
  : S extends { readonly type: 'host'; readonly is: (value: unknown) => value is infer T }
    ? T
    : S extends { readonly type: 'host' }
      ? unknown
      : S extends { readonly type: 'record'; readonly values: infer V }
        ? { readonly [key: string]: InferConfigSide<V, M> }
        : S extends { readonly oneOf: readonly (infer B)[] } | { readonly anyOf: readonly (infer B)[] }
          ? B extends unknown
            ? InferConfigSide<B, M>
            : never
          : S extends { readonly type: 'array' }
            ? S extends { readonly items: infer I }
              ? readonly InferConfigSide<I, M>[]
              : readonly JsonValue[]
            : S extends { readonly type: 'object' }
              ? S extends { readonly properties: infer P }
                ? InferFields<P, M>
                : { readonly [key: string]: JsonValue }
              : InferValue<S>

/** A built config schema (what `configSchema` returns), matched structurally to keep this module type-only. */
interface BuiltConfigSchema<Input, Output> {
  readonly '~standard': {
    readonly validate: (value: unknown) => { readonly value: Output } | { readonly issues: unknown }
    readonly types?: { readonly input: Input; readonly output: Output }
  }
}

/**
 * The config a plugin receives once validated, from a config spec or from the `ConfigSchema`
 * built from it: required fields and fields with a `default` are present, others optional;
 * `host` fields take their guard's type. Use a `const` type parameter or `as const` to keep literals.
 */
export type InferConfig<S> =
  S extends BuiltConfigSchema<unknown, infer Output> ? Output : InferConfigSide<S, 'output'>

/** The config a user may write (only `required: true` fields are mandatory), from a spec or a `ConfigSchema`. */
export type InferConfigInput<S> =
  S extends BuiltConfigSchema<infer Input, unknown> ? NonNullable<Input> : InferConfigSide<S, 'input'>

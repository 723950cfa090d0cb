import type { JsonValue } from './types'

/**
 * Annotations every DSL spec may carry. They are copied to the compiled JSON Schema and shown to
 * the model (doc comments in the Code Mode SDK); they never change validation, and no default
 * is ever applied. Values must be lossless JSON.
 */
export interface SchemaSpecAnnotations {
  /** Short title, copied to the compiled JSON Schema. */
  readonly title?: string
  /** Human/model-facing description, copied to the compiled JSON Schema. */
  readonly description?: string
  /** Documented default (annotation only: never applied to arguments or outputs). */
  readonly default?: JsonValue
  /** Example values (annotation only). */
  readonly examples?: readonly JsonValue[]
  /** Marks the field or value as deprecated (annotation only). */
  readonly deprecated?: boolean
}

/**
 * Bounds of `number` and `integer` specs, enforced as the JSON Schema keywords of the same name
 * and shown to the model. Finite numbers; `multipleOf` greater than 0; `minimum` ≤ `maximum`.
 */
export interface NumberSpecBounds {
  /** The value must be ≥ this. */
  readonly minimum?: number
  /** The value must be ≤ this. */
  readonly maximum?: number
  /** The value must be > this. */
  readonly exclusiveMinimum?: number
  /** The value must be < this. */
  readonly exclusiveMaximum?: number
  /** The value must be an integer multiple of this (> 0). */
  readonly multipleOf?: number
}

/** The `format` names a string spec may declare: the ones `{ formats: 'assert' }` checks. */
export type SpecFormat =
  | 'date-time'
  | 'date'
  | 'time'
  | 'duration'
  | 'email'
  | 'hostname'
  | 'ipv4'
  | 'ipv6'
  | 'uri'
  | 'uri-reference'
  | 'uuid'
  | 'regex'

/**
 * Bounds of `string` specs. Lengths count Unicode code points (non-negative integers,
 * `minLength` ≤ `maxLength`). `pattern` is an unanchored ECMAScript regex run in the
 * linear-time engine (one it refuses, e.g. with a backreference, is a definition error).
 * `format` is shown to the model and asserted only under `{ formats: 'assert' }`.
 */
export interface StringSpecBounds {
  readonly minLength?: number
  readonly maxLength?: number
  readonly pattern?: string
  readonly format?: SpecFormat
}

/** Bounds of `array` specs: item counts (non-negative integers) and `uniqueItems`. */
export interface ArraySpecBounds {
  readonly minItems?: number
  readonly maxItems?: number
  /** `true`: no two items may be equal (JSON equality). */
  readonly uniqueItems?: boolean
}

/** `{ type: 'string' }`, optionally restricted by `enum` / `const` and bounds. */
export interface StringSchemaSpec extends SchemaSpecAnnotations, StringSpecBounds {
  readonly type: 'string'
  readonly enum?: readonly string[]
  readonly const?: string
}

/** `{ type: 'number' }` (any finite number), optionally restricted by `enum` / `const` and bounds. */
export interface NumberSchemaSpec extends SchemaSpecAnnotations, NumberSpecBounds {
  readonly type: 'number'
  readonly enum?: readonly number[]
  readonly const?: number
}

/** `{ type: 'integer' }` (`Number.isInteger`), optionally restricted by `enum` / `const` and bounds. */
export interface IntegerSchemaSpec extends SchemaSpecAnnotations, NumberSpecBounds {
  readonly type: 'integer'
  readonly enum?: readonly number[]
  readonly const?: number
}

/** `{ type: 'boolean' }`, optionally restricted by `enum` / `const`. */
export interface BooleanSchemaSpec extends SchemaSpecAnnotations {
  readonly type: 'boolean'
  readonly enum?: readonly boolean[]
  readonly const?: boolean
}

/** `{ type: 'null' }`. */
export interface NullSchemaSpec extends SchemaSpecAnnotations {
  readonly type: 'null'
}

/** `{ type: 'array' }`; without `items` only the container type (and bounds) is checked. */
export interface ArraySchemaSpec extends SchemaSpecAnnotations, ArraySpecBounds {
  readonly type: 'array'
  readonly items?: ValueSchemaSpec
}

/**
 * An explicit object. `additionalProperties` is mandatory: `false` rejects undeclared keys
 * (and with no `properties` accepts only `{}`), `true` accepts them unchecked.
 * Fields are `ParameterFieldSpec`s: `required: true` makes a field mandatory.
 */
export interface ObjectSchemaSpec extends SchemaSpecAnnotations {
  readonly type: 'object'
  readonly properties?: { readonly [name: string]: ParameterFieldSpec }
  readonly additionalProperties: boolean
}

/** Author-only `json`: any JSON value (compiles to the annotation-only `{}` node). */
export interface JsonAnySchemaSpec extends SchemaSpecAnnotations {
  readonly type: 'json'
}

/** Exact-one `oneOf`: the value must match exactly one of at least two branches. */
export interface OneOfSchemaSpec extends SchemaSpecAnnotations {
  readonly oneOf: readonly ValueSchemaSpec[]
}

/**
 * `anyOf`: the value must match at least one of at least two branches. Prefer it to `oneOf`
 * when branches may overlap (e.g. `{ type: 'string', format: 'uri' }` and `{ type: 'string' }`):
 * `oneOf` refuses a value that two branches accept.
 */
export interface AnyOfSchemaSpec extends SchemaSpecAnnotations {
  readonly anyOf: readonly ValueSchemaSpec[]
}

/** The DSL for any JSON value root. */
export type ValueSchemaSpec =
  | StringSchemaSpec
  | NumberSchemaSpec
  | IntegerSchemaSpec
  | BooleanSchemaSpec
  | NullSchemaSpec
  | ArraySchemaSpec
  | ObjectSchemaSpec
  | JsonAnySchemaSpec
  | OneOfSchemaSpec
  | AnyOfSchemaSpec

/** A field of a parameter or object spec: a `ValueSchemaSpec` plus `required?` (default optional). */
export type ParameterFieldSpec = ValueSchemaSpec & {
  /** `true` makes the field mandatory; anything else leaves it optional. */
  readonly required?: boolean
  readonly description?: string
}

/** The implicit, open parameter object of a tool: field name → field spec. */
export type ParameterSchemaSpec = { readonly [name: string]: ParameterFieldSpec }

type Depth = [0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]
/** `D - 1` for the 16-level depth counters of the spec types (0 stays 0). */
export type Decrement<D extends number> = Depth[D]

type Simplify<T> = { [K in keyof T]: T[K] } & {}

type InferScalar<S, Base> = S extends { readonly const: infer C extends Base }
  ? C
  : S extends { readonly enum: readonly (infer E extends Base)[] }
    ? E
    : Base

type InferProperties<P, D extends number> = Simplify<
  {
    -readonly [K in keyof P as P[K] extends { readonly required: true } ? K : never]: InferValue<P[K], D>
  } & {
    -readonly [K in keyof P as P[K] extends { readonly required: true } ? never : K]?: InferValue<P[K], D>
  }
>

type InferContainer<S, D extends number> = D extends 0
  ? JsonValue
  : S extends { readonly type: 'array' }
    ? S extends { readonly items: infer I }
      ? InferValue<I, Decrement<D>>[]
      : JsonValue[]
    : S extends { readonly properties: infer P }
      ? InferProperties<P, Decrement<D>>
      : S extends { readonly additionalProperties: false }
        ? { [key: string]: never }
        : { [key: string]: JsonValue }

/**
 * The TypeScript type of values accepted by a `ValueSchemaSpec` (use a `const` type parameter or
 * `as const` to keep literals). Exact through 16 container levels (arrays/objects), then `JsonValue`.
 * `oneOf` and `anyOf` infer the union of their branches; `json` infers `JsonValue`, and so does the wide
 * `ValueSchemaSpec` (a spec not known at compile time).
 */
export type InferValue<S, D extends number = 16> = [ValueSchemaSpec] extends [S]
  ? // The wide spec type itself (a spec only known at run time): any JSON, decided in one step
    // instead of expanding the recursive union 16 levels deep (TS2589 "excessively deep").
    JsonValue
  : S extends { readonly oneOf: readonly (infer B)[] } | { readonly anyOf: readonly (infer B)[] }
    ? B extends unknown
      ? InferValue<B, D>
      : never
    : S extends { readonly type: infer T }
      ? T extends 'string'
        ? InferScalar<S, string>
        : T extends 'number' | 'integer'
          ? InferScalar<S, number>
          : T extends 'boolean'
            ? InferScalar<S, boolean>
            : T extends 'null'
              ? null
              : T extends 'array' | 'object'
                ? InferContainer<S, D>
                : JsonValue
      : JsonValue

/**
 * The argument type of a `ParameterSchemaSpec`: fields with `required: true` are required,
 * all others optional. The parameter object counts as the first of the 16 exact levels.
 */
export type InferArgs<P> = InferProperties<P, 15>

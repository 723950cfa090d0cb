import type { Decrement, ParameterSchemaSpec, ValueSchemaSpec } from './schema-spec'

/**
 * The compile-time message for an explicit object spec without `additionalProperties` (the
 * run-time `SchemaDefinitionError` says the same). It appears as the expected type of the
 * missing key, so the TypeScript error names the fix.
 */
export type MissingAdditionalProperties = 'object specs need additionalProperties: false (or true)'

/**
 * What `defineTool` and friends accept as a DSL spec before checking it: any record of specs.
 * Inference keeps the literal spec even when it is wrong, and {@link CheckParameterSpec} /
 * {@link CheckValueSpec} then report the mistake where it is, instead of TypeScript falling
 * back to the whole `ParameterSchemaSpec` (a long error chain plus "excessively deep").
 */
export type ParameterSchemaSpecInput = { readonly [name: string]: object }

/** What a DSL value-spec position accepts before {@link CheckValueSpec} checks it. */
export type ValueSchemaSpecInput = object

/** True when some object spec in `S` (within 16 levels) lacks `additionalProperties`. */
type MissingIn<S, D extends number> = D extends 0
  ? false
  : S extends
        | { readonly oneOf: infer B extends readonly unknown[] }
        | { readonly anyOf: infer B extends readonly unknown[] }
    ? MissingIn<B[number], Decrement<D>>
    : S extends { readonly type: 'array'; readonly items: infer I }
      ? MissingIn<I, Decrement<D>>
      : S extends { readonly type: 'object' }
        ? S extends { readonly additionalProperties: boolean }
          ? S extends { readonly properties: infer P }
            ? MissingIn<P[keyof P], Decrement<D>>
            : false
          : true
        : false

/** The spots of `S` that lack `additionalProperties`, as the shape they should have had. */
type Pinpoint<S, D extends number> = D extends 0
  ? unknown
  : S extends { readonly oneOf: infer B extends readonly unknown[] }
    ? { readonly oneOf: { readonly [I in keyof B]: Pinpoint<B[I], Decrement<D>> } }
    : S extends { readonly anyOf: infer B extends readonly unknown[] }
      ? { readonly anyOf: { readonly [I in keyof B]: Pinpoint<B[I], Decrement<D>> } }
      : S extends { readonly type: 'array'; readonly items: infer I }
        ? { readonly items: Pinpoint<I, Decrement<D>> }
        : S extends { readonly type: 'object' }
          ? (S extends { readonly additionalProperties: boolean }
              ? unknown
              : { readonly additionalProperties: MissingAdditionalProperties }) &
              (S extends { readonly properties: infer P }
                ? { readonly properties: PinpointFields<P, D> }
                : unknown)
          : unknown

type PinpointFields<P, D extends number> = { readonly [K in keyof P]: Pinpoint<P[K], Decrement<D>> }

/**
 * The type-level check of a parameter spec `P`, intersected with `P` where it is accepted:
 * `unknown` for a valid spec; for an object spec without `additionalProperties` a shape whose
 * `additionalProperties` is {@link MissingAdditionalProperties} at exactly that place; for any
 * other mistake `ParameterSchemaSpec` (the usual assignability error).
 */
export type CheckParameterSpec<P> = [P] extends [ParameterSchemaSpec]
  ? unknown
  : true extends MissingIn<P[keyof P], 16>
    ? PinpointFields<P, 17>
    : ParameterSchemaSpec

/** {@link CheckParameterSpec} for a `ValueSchemaSpec` root (e.g. an output schema). */
export type CheckValueSpec<S> = [S] extends [ValueSchemaSpec]
  ? unknown
  : true extends MissingIn<S, 16>
    ? Pinpoint<S, 16>
    : ValueSchemaSpec

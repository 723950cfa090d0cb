import {
  assertSupportedJsonSchema,
  type CheckParameterSpec,
  type CheckValueSpec,
  compileJsonSchemaValidator,
  type InferArgs,
  type InferValue,
  type JsonSchemaNode,
  type JsonValue,
  type ObjectJsonSchema,
  type ParameterSchemaSpec,
  type ParameterSchemaSpecInput,
  parameterSchemaSpecToJsonSchema,
  SchemaDefinitionError,
  snapshotJson,
  type ValueSchemaSpec,
  type ValueSchemaSpecInput,
  valueSchemaSpecToJsonSchema,
} from '@dsh/tools-schema'
import type { ToolCallView, ToolResultView } from './presentation-types'
import {
  isStandardSchema,
  parseWithStandardSchema,
  type StandardInput,
  type StandardJsonSchemaConverter,
  type StandardOutput,
  type StandardSchemaV1,
  standardJsonSchema,
} from './standard-schema'
import type {
  ToolAnnotations,
  ToolContent,
  ToolDefinition,
  ToolExecution,
  ToolExecutionResult,
  ToolResultRecord,
  ToolRunContext,
} from './types'

/** What every `defineTool` spec shares, whatever kind its output schema is. */
interface ToolSpecBase<P extends ParameterSchemaSpecInput> {
  readonly name: string
  readonly description: string
  /** The implicit, open parameter object: field name → field spec (`required: true` for mandatory). */
  readonly parameters: P
  finalizeContent?(exec: ToolExecution, result: ToolExecutionResult): ToolContent | undefined
  presentCall?(args: NoInfer<InferArgs<P>>): ToolCallView | undefined
  presentResult?(
    args: NoInfer<InferArgs<P>>,
    result: ToolResultRecord,
    meta: JsonValue | undefined,
  ): ToolResultView | undefined
  readonly timeoutMs?: number
  isConcurrencySafe?(args: NoInfer<InferArgs<P>>): boolean
  /** Behaviour hints (`readOnly`, `destructive`, `idempotent`, `openWorld`); `readOnly` implies concurrency-safe. */
  readonly annotations?: ToolAnnotations
}

/** The DSL form `defineTool` accepts: parameters and output schema as schema specs. */
export interface ToolSpec<P extends ParameterSchemaSpecInput, O extends ValueSchemaSpecInput>
  extends ToolSpecBase<P> {
  readonly output: {
    /** A `ValueSchemaSpec` (the DSL); `{ type: 'json' }` for any JSON value. */
    readonly schema: O
    render(args: NoInfer<InferArgs<P>>, value: NoInfer<InferValue<O>>): ToolContent
    presentationMeta?(args: NoInfer<InferArgs<P>>, value: NoInfer<InferValue<O>>): JsonValue | undefined
  }
  execute(args: NoInfer<InferArgs<P>>, exec: ToolRunContext): BodyResult<O>
}

/**
 * A `defineTool` spec whose output is declared as raw JSON Schema (`output.jsonSchema`, the
 * enforced subset) instead of the DSL: the value is typed `JsonValue`. `{}` accepts any JSON.
 */
export interface JsonSchemaToolSpec<P extends ParameterSchemaSpecInput> extends ToolSpecBase<P> {
  readonly output: {
    /** A raw `JsonSchemaNode`, checked with `assertSupportedJsonSchema` and copied. */
    readonly jsonSchema: JsonSchemaNode
    render(args: NoInfer<InferArgs<P>>, value: JsonValue): ToolContent
    presentationMeta?(args: NoInfer<InferArgs<P>>, value: JsonValue): JsonValue | undefined
  }
  execute(args: NoInfer<InferArgs<P>>, exec: ToolRunContext): JsonValue | Promise<JsonValue>
}

/**
 * A `defineTool` spec whose `parameters` is a Standard Schema v1 value (zod 4, valibot,
 * arktype…), recognised by its documented `~standard` property. The schema's own `validate`
 * checks model arguments (refinements and transforms hold) and the body receives its output.
 * `output.schema` is a DSL spec or a Standard Schema; a Standard Schema's own `validate` checks
 * the body's value and its output is what gets published (and rendered). The JSON Schema the
 * model sees comes from `toJsonSchema` when given, else from Standard JSON Schema
 * (`~standard.jsonSchema`).
 */
export interface StandardToolSpec<P extends StandardSchemaV1, O> {
  readonly name: string
  readonly description: string
  readonly parameters: P
  /** The library's converter, used instead of `~standard.jsonSchema` (e.g. `(s, io) => z.toJSONSchema(s, { io })`). */
  readonly toJsonSchema?: StandardJsonSchemaConverter | undefined
  readonly output: {
    readonly schema: O
    render(args: NoInfer<StandardInput<P>>, value: NoInfer<StandardValue<O>>): ToolContent
    presentationMeta?(
      args: NoInfer<StandardInput<P>>,
      value: NoInfer<StandardValue<O>>,
    ): JsonValue | undefined
  }
  execute(args: NoInfer<StandardOutput<P>>, exec: ToolRunContext): StandardBody<O>
  finalizeContent?(exec: ToolExecution, result: ToolExecutionResult): ToolContent | undefined
  /** Presenters and `isConcurrencySafe` get the canonical (input-typed) JSON arguments. */
  presentCall?(args: NoInfer<StandardInput<P>>): ToolCallView | undefined
  presentResult?(
    args: NoInfer<StandardInput<P>>,
    result: ToolResultRecord,
    meta: JsonValue | undefined,
  ): ToolResultView | undefined
  readonly timeoutMs?: number
  isConcurrencySafe?(args: NoInfer<StandardInput<P>>): boolean
}

/** The value type of an output schema that is a Standard Schema (its output) or a DSL spec. */
export type StandardValue<O> = [O] extends [StandardSchemaV1] ? StandardOutput<O> : DefinedValue<O>

/**
 * What a body with output schema `O` may return: a Standard Schema's **input** (its own
 * `validate` turns it into the published output), or the DSL spec's value.
 */
export type StandardBody<O> = [O] extends [StandardSchemaV1]
  ? StandardInput<O> | Promise<StandardInput<O>>
  : BodyResult<O>

/** What a `defineTool` body may return: the output spec's value, or a promise of it. */
export type BodyResult<O> = [O] extends [infer S] ? InferValue<S> | Promise<InferValue<S>> : never

/** The canonical value type of a `defineTool` output spec. */
export type DefinedValue<O> = [O] extends [infer S]
  ? InferValue<S> extends infer V extends JsonValue
    ? V
    : JsonValue
  : never

/**
 * The type-level check of DSL `parameters` (see `CheckParameterSpec`): inference keeps the
 * author's literal spec, and a mistake is reported where it is, with a message that names the fix.
 */
interface CheckedParameters<P> {
  readonly parameters: NoInfer<CheckParameterSpec<P>>
}

/** The type-level check of a DSL `output.schema` (see `CheckValueSpec`). */
interface CheckedOutput<O> {
  readonly output: { readonly schema: NoInfer<CheckValueSpec<O>> }
}

function isView(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { card?: unknown }).card === 'string'
}

/**
 * Define a tool whose `parameters` is a Standard Schema (zod 4, valibot, arktype…): the body
 * gets the schema's output. See {@link StandardToolSpec}.
 *
 * @example
 * defineTool({
 *   name: 'greet', description: 'Greet someone.',
 *   parameters: z.object({ name: z.string().trim() }),
 *   output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
 *   execute: (args) => `hello ${args.name}`,
 * })
 */
export function defineTool<P extends StandardSchemaV1, O extends StandardSchemaV1>(
  spec: StandardToolSpec<P, O>,
): ToolDefinition<StandardInput<P>, JsonValue>
/** Define a tool with Standard Schema `parameters` and a DSL `output.schema`. */
export function defineTool<P extends StandardSchemaV1, const O extends ValueSchemaSpec>(
  spec: StandardToolSpec<P, O>,
): ToolDefinition<StandardInput<P>, DefinedValue<O>>
/**
 * Define a tool whose output schema is raw JSON Schema: `output: { jsonSchema, render }`.
 *
 * @example
 * defineTool({
 *   name: 'lookup', description: 'Any JSON back.', parameters: {},
 *   output: { jsonSchema: {}, render: (_args, value) => [{ type: 'text', text: JSON.stringify(value) }] },
 *   execute: () => [1, 'two', null],
 * })
 */
export function defineTool<const P extends ParameterSchemaSpecInput>(
  spec: JsonSchemaToolSpec<P> & CheckedParameters<P>,
): ToolDefinition<InferArgs<P>, JsonValue>
/**
 * Define a tool from the schema DSL: `args` are typed from `parameters`, the body's return
 * type from `output.schema`. Both specs compile (and are checked) here. The registry validates
 * model arguments before any policy; presenters and `isConcurrencySafe` get soft-validated
 * arguments — arguments that do not match (an old log, a bad call) fall back to the generic
 * card / exclusive scheduling instead of reaching the callback, and a throwing presenter
 * falls back too.
 *
 * @example
 * ctx.tools.register(defineTool({
 *   name: 'echo', description: 'Echo text.',
 *   parameters: { text: { type: 'string', required: true } },
 *   output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
 *   execute: (args) => args.text,
 * }))
 *
 * Declared last: TypeScript reports the last overload's error, and this is the common form.
 */
export function defineTool<const P extends ParameterSchemaSpecInput, const O extends ValueSchemaSpecInput>(
  spec: ToolSpec<P, O> & CheckedParameters<P> & CheckedOutput<O>,
): ToolDefinition<InferArgs<P>, DefinedValue<O>>
export function defineTool(spec: unknown): ToolDefinition {
  return buildDefinition(spec as AnySpec)
}

/* biome-ignore-start lint/suspicious/noExplicitAny: the implementation is untyped; `defineTool` types it */
interface AnySpec {
  readonly name: string
  readonly description: string
  readonly parameters: ParameterSchemaSpec | StandardSchemaV1
  readonly toJsonSchema?: StandardJsonSchemaConverter | undefined
  readonly output: {
    readonly schema?: ValueSchemaSpec | StandardSchemaV1
    readonly jsonSchema?: JsonSchemaNode
    render(args: any, value: any): ToolContent
    presentationMeta?(args: any, value: any): JsonValue | undefined
  }
  execute(args: any, exec: ToolRunContext): any
  finalizeContent?(exec: ToolExecution, result: ToolExecutionResult): ToolContent | undefined
  presentCall?(args: any): ToolCallView | undefined
  presentResult?(args: any, result: ToolResultRecord, meta: JsonValue | undefined): ToolResultView | undefined
  readonly timeoutMs?: number
  isConcurrencySafe?(args: any): boolean
  readonly annotations?: ToolAnnotations
}
/* biome-ignore-end lint/suspicious/noExplicitAny: end */

/**
 * The output schema as raw JSON Schema. The author says which kind it is by the key they use
 * (`schema`: DSL, `jsonSchema`: raw); nothing is inferred from the schema's shape. Phase 2's
 * Standard Schema joins `schema` through its `~standard` brand, a protocol rather than a guess.
 */
function outputSchemaOf(output: AnySpec['output'], converter: AnySpec['toJsonSchema']): JsonSchemaNode {
  const hasSpec = typeof output === 'object' && output !== null && Object.hasOwn(output, 'schema')
  const hasRaw = typeof output === 'object' && output !== null && Object.hasOwn(output, 'jsonSchema')
  if (hasSpec === hasRaw) {
    throw new SchemaDefinitionError(
      '$.output',
      'declare exactly one of `output.schema` (schema DSL) or `output.jsonSchema` (raw JSON Schema)',
    )
  }
  if (hasSpec && isStandardSchema(output.schema)) {
    return standardJsonSchema(
      output.schema,
      'output',
      converter,
      '$.output.schema',
    ) as unknown as JsonSchemaNode
  }
  if (hasSpec) return valueSchemaSpecToJsonSchema(output.schema as ValueSchemaSpec)
  assertSupportedJsonSchema(output.jsonSchema)
  return snapshotJson(output.jsonSchema) as JsonSchemaNode
}

function buildDefinition(spec: AnySpec): ToolDefinition {
  // the three kinds of `parameters`: a Standard Schema (by its `~standard` protocol) or the DSL
  const standard = isStandardSchema(spec.parameters) ? spec.parameters : undefined
  const parameters =
    standard === undefined
      ? parameterSchemaSpecToJsonSchema(spec.parameters as ParameterSchemaSpec)
      : (standardJsonSchema(
          standard,
          'input',
          spec.toJsonSchema,
          '$.parameters',
        ) as unknown as ObjectJsonSchema)
  const outputSchema = outputSchemaOf(spec.output, spec.toJsonSchema)
  const check = compileJsonSchemaValidator(parameters)
  const valid = (args: unknown): args is JsonValue => check(args).length === 0
  const { presentCall, presentResult, isConcurrencySafe, presentationMeta } = {
    presentCall: spec.presentCall,
    presentResult: spec.presentResult,
    isConcurrencySafe: spec.isConcurrencySafe,
    presentationMeta: spec.output.presentationMeta,
  }
  const output: ToolDefinition['output'] = {
    schema: outputSchema,
    render: (args, value) => spec.output.render(args, value),
  }
  if (presentationMeta !== undefined) {
    ;(output as { presentationMeta?: unknown }).presentationMeta = (args: unknown, value: JsonValue) =>
      presentationMeta.call(spec.output, args, value)
  }
  const definition: Record<string, unknown> = {
    name: spec.name,
    description: spec.description,
    parameters,
    output: Object.freeze(output),
    execute: (args: JsonValue, exec: ToolRunContext) => spec.execute(args, exec),
  }
  if (standard !== undefined) {
    definition.parseArguments = (args: JsonValue) => parseWithStandardSchema(standard, args)
  }
  const outputStandard = isStandardSchema(spec.output.schema) ? spec.output.schema : undefined
  if (outputStandard !== undefined) {
    // the library's own check on the body's value: refinements hold, a transform's output is published
    definition.parseOutput = (value: JsonValue) => parseWithStandardSchema(outputStandard, value)
  }
  if (spec.finalizeContent !== undefined) {
    const finalize = spec.finalizeContent
    definition.finalizeContent = (exec: ToolExecution, result: ToolExecutionResult) =>
      finalize.call(spec, exec, result)
  }
  if (spec.timeoutMs !== undefined) definition.timeoutMs = spec.timeoutMs
  if (spec.annotations !== undefined) definition.annotations = Object.freeze({ ...spec.annotations })
  if (presentCall !== undefined) {
    definition.presentCall = (args: unknown) => {
      try {
        if (!valid(args)) return undefined
        const view = presentCall.call(spec, args)
        return isView(view) ? view : undefined
      } catch {
        return undefined
      }
    }
  }
  if (presentResult !== undefined) {
    definition.presentResult = (args: unknown, result: ToolResultRecord, meta: JsonValue | undefined) => {
      try {
        if (!valid(args)) return undefined
        const view = presentResult.call(spec, args, result, meta)
        return isView(view) ? view : undefined
      } catch {
        return undefined
      }
    }
  }
  if (isConcurrencySafe !== undefined) {
    definition.isConcurrencySafe = (args: unknown) => {
      try {
        if (!valid(args)) return false
        return isConcurrencySafe.call(spec, args) === true
      } catch {
        return false
      }
    }
  }
  return Object.freeze(definition) as unknown as ToolDefinition
}

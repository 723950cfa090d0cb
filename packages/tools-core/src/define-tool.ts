import {
  assertSupportedJsonSchema,
  compileJsonSchemaValidator,
  type InferArgs,
  type InferValue,
  type JsonSchemaNode,
  type JsonValue,
  type ParameterSchemaSpec,
  parameterSchemaSpecToJsonSchema,
  SchemaDefinitionError,
  snapshotJson,
  type ValueSchemaSpec,
  valueSchemaSpecToJsonSchema,
} from '@dsh/tools-schema'
import type { ToolCallView, ToolResultView } from './presentation-types'
import type {
  ToolContent,
  ToolDefinition,
  ToolExecution,
  ToolExecutionResult,
  ToolResultRecord,
  ToolRunContext,
} from './types'

/** What every `defineTool` spec shares, whatever kind its output schema is. */
interface ToolSpecBase<P extends ParameterSchemaSpec> {
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
}

/** The DSL form `defineTool` accepts: parameters and output schema as schema specs. */
export interface ToolSpec<P extends ParameterSchemaSpec, O extends ValueSchemaSpec> extends ToolSpecBase<P> {
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
export interface JsonSchemaToolSpec<P extends ParameterSchemaSpec> extends ToolSpecBase<P> {
  readonly output: {
    /** A raw `JsonSchemaNode`, checked with `assertSupportedJsonSchema` and copied. */
    readonly jsonSchema: JsonSchemaNode
    render(args: NoInfer<InferArgs<P>>, value: JsonValue): ToolContent
    presentationMeta?(args: NoInfer<InferArgs<P>>, value: JsonValue): JsonValue | undefined
  }
  execute(args: NoInfer<InferArgs<P>>, exec: ToolRunContext): JsonValue | Promise<JsonValue>
}

/** What a `defineTool` body may return: the output spec's value, or a promise of it. */
export type BodyResult<O> = [O] extends [infer S] ? InferValue<S> | Promise<InferValue<S>> : never

/** The canonical value type of a `defineTool` output spec. */
export type DefinedValue<O> = [O] extends [infer S]
  ? InferValue<S> extends infer V extends JsonValue
    ? V
    : JsonValue
  : never

function isView(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { card?: unknown }).card === 'string'
}

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
 */
export function defineTool<const P extends ParameterSchemaSpec, const O extends ValueSchemaSpec>(
  spec: ToolSpec<P, O>,
): ToolDefinition<InferArgs<P>, DefinedValue<O>>
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
export function defineTool<const P extends ParameterSchemaSpec>(
  spec: JsonSchemaToolSpec<P>,
): ToolDefinition<InferArgs<P>, JsonValue>
export function defineTool(spec: unknown): ToolDefinition {
  return buildDefinition(spec as AnySpec)
}

/* biome-ignore-start lint/suspicious/noExplicitAny: the implementation is untyped; `defineTool` types it */
interface AnySpec {
  readonly name: string
  readonly description: string
  readonly parameters: ParameterSchemaSpec
  readonly output: {
    readonly schema?: ValueSchemaSpec
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
}
/* biome-ignore-end lint/suspicious/noExplicitAny: end */

/**
 * The output schema as raw JSON Schema. The author says which kind it is by the key they use
 * (`schema`: DSL, `jsonSchema`: raw); nothing is inferred from the schema's shape. Phase 2's
 * Standard Schema joins `schema` through its `~standard` brand, a protocol rather than a guess.
 */
function outputSchemaOf(output: AnySpec['output']): JsonSchemaNode {
  const hasSpec = typeof output === 'object' && output !== null && Object.hasOwn(output, 'schema')
  const hasRaw = typeof output === 'object' && output !== null && Object.hasOwn(output, 'jsonSchema')
  if (hasSpec === hasRaw) {
    throw new SchemaDefinitionError(
      '$.output',
      'declare exactly one of `output.schema` (schema DSL) or `output.jsonSchema` (raw JSON Schema)',
    )
  }
  if (hasSpec) return valueSchemaSpecToJsonSchema(output.schema!)
  assertSupportedJsonSchema(output.jsonSchema)
  return snapshotJson(output.jsonSchema) as JsonSchemaNode
}

function buildDefinition(spec: AnySpec): ToolDefinition {
  const parameters = parameterSchemaSpecToJsonSchema(spec.parameters)
  const outputSchema = outputSchemaOf(spec.output)
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
  if (spec.finalizeContent !== undefined) {
    const finalize = spec.finalizeContent
    definition.finalizeContent = (exec: ToolExecution, result: ToolExecutionResult) =>
      finalize.call(spec, exec, result)
  }
  if (spec.timeoutMs !== undefined) definition.timeoutMs = spec.timeoutMs
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

import {
  assertObjectJsonSchema,
  assertSupportedJsonSchema,
  compileJsonSchemaValidator,
  type JsonSchemaNode,
  type JsonSchemaValidatorOptions,
  normalizeSchema,
  type ObjectJsonSchema,
  type SchemaViolation,
  snapshotJson,
} from '@dsh/tools-schema'
import { ToolRegistrationError } from '../errors'
import type { NativeToolSpec, ToolDefinition, ToolSchema } from '../types'
import { toolNameProblem } from './tool-name'

/** Everything the pipeline needs about one definition, computed once at registration. */
export interface CompiledTool {
  readonly name: string
  readonly definition: ToolDefinition
  readonly schema: ToolSchema
  readonly nativeSpec: NativeToolSpec
  readonly checkArgs: (value: unknown) => readonly SchemaViolation[]
  readonly checkOutput: (value: unknown) => readonly SchemaViolation[]
}

const ANNOTATION_KEYS = new Set(['readOnly', 'destructive', 'idempotent', 'openWorld'])

function checkAnnotations(name: string, annotations: unknown): void {
  if (annotations === undefined) return
  if (typeof annotations !== 'object' || annotations === null || Array.isArray(annotations)) {
    fail(name, '`annotations` must be an object')
  }
  for (const [key, value] of Object.entries(annotations)) {
    if (!ANNOTATION_KEYS.has(key)) fail(name, `unknown annotation \`${key}\``)
    if (typeof value !== 'boolean' && value !== undefined)
      fail(name, `annotation \`${key}\` must be a boolean`)
  }
}

const OPTIONAL_FUNCTIONS = [
  'parseArguments',
  'parseOutput',
  'finalizeContent',
  'presentCall',
  'presentResult',
  'isConcurrencySafe',
] as const

function fail(name: string, message: string, cause?: unknown): never {
  throw new ToolRegistrationError(`tool \`${name}\`: ${message}`, cause === undefined ? undefined : { cause })
}

function frozenSchema(name: string, what: string, node: unknown, object: boolean): JsonSchemaNode {
  try {
    assertSupportedJsonSchema(node)
    // One form for everything downstream (SDK text, provider dialects, validation): draft-04/06
    // documents as draft-07, `nullable` and boolean exclusive bounds in their standard spelling.
    const canonical = normalizeSchema(node, { from: 'json-schema' })
    if (object) assertObjectJsonSchema(canonical)
    else assertSupportedJsonSchema(canonical)
    return snapshotJson(canonical) as JsonSchemaNode
  } catch (error) {
    return fail(name, `${what} is not a supported JSON Schema: ${(error as Error).message}`, error)
  }
}

/**
 * How a runtime compiles every definition's schemas: `formats` is the `ToolRuntime` config key
 * of the same name, applied alike to `parameters` and `output.schema` of every registration.
 */
export type CompileOptions = Pick<JsonSchemaValidatorOptions, 'formats'>

/**
 * Validate a definition and precompute its frozen schemas and validators. Throws
 * `ToolRegistrationError` for a missing/unsupported output declaration, bad `timeoutMs`, or a
 * malformed definition.
 */
export function compileTool(definition: ToolDefinition, options: CompileOptions = {}): CompiledTool {
  if (typeof definition !== 'object' || definition === null) {
    throw new ToolRegistrationError('a tool definition must be an object')
  }
  const name = definition.name
  if (typeof name !== 'string' || name.length === 0) {
    throw new ToolRegistrationError('a tool definition needs a non-empty string `name`')
  }
  const nameProblem = toolNameProblem(name)
  if (nameProblem !== undefined) throw new ToolRegistrationError(nameProblem)
  if (typeof definition.description !== 'string') fail(name, '`description` must be a string')
  if (typeof definition.execute !== 'function') fail(name, '`execute` must be a function')
  const output = definition.output as ToolDefinition['output'] | undefined
  if (typeof output !== 'object' || output === null)
    fail(name, 'a tool must declare `output: { schema, render }`')
  if (typeof output.render !== 'function') fail(name, '`output.render` must be a function')
  if (output.presentationMeta !== undefined && typeof output.presentationMeta !== 'function') {
    fail(name, '`output.presentationMeta` must be a function')
  }
  for (const key of OPTIONAL_FUNCTIONS) {
    if (definition[key] !== undefined && typeof definition[key] !== 'function')
      fail(name, `\`${key}\` must be a function`)
  }
  const timeoutMs = definition.timeoutMs
  if (
    timeoutMs !== undefined &&
    (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0)
  ) {
    fail(name, '`timeoutMs` must be a positive finite number')
  }
  checkAnnotations(name, definition.annotations)
  const parameters = frozenSchema(name, '`parameters`', definition.parameters, true) as ObjectJsonSchema
  const outputSchema = frozenSchema(name, '`output.schema`', output.schema, false)
  const schema: ToolSchema = Object.freeze({
    name,
    description: definition.description,
    parameters,
    outputSchema,
  })
  return Object.freeze({
    name,
    definition,
    schema,
    nativeSpec: Object.freeze({ name, description: definition.description, parameters }),
    checkArgs: compileJsonSchemaValidator(parameters, options),
    checkOutput: compileJsonSchemaValidator(outputSchema, options),
  })
}

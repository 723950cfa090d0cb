import type {
  ArgumentsParse,
  JsonSchemaNode,
  JsonValue,
  ObjectJsonSchema,
  ToolContent,
  ToolDefinition,
  ToolRunContext,
} from '@dsh/tools-core'
import { asSchema, type ToolSet } from 'ai'

/** One AI SDK tool, as `registerAiSdkTools` accepts it (a function tool with `execute`). */
export type AiSdkTool = ToolSet[string]

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function'
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof (value as { [Symbol.asyncIterator]?: unknown } | null)?.[Symbol.asyncIterator] === 'function'
}

/** The JSON Schema of an AI SDK schema (zod, Standard Schema, `jsonSchema`), which must be ready now. */
function jsonSchemaOf(name: string, role: string, schema: ReturnType<typeof asSchema>): JsonSchemaNode {
  const json = schema.jsonSchema
  if (isThenable(json)) {
    throw new TypeError(
      `registerAiSdkTools(): the ${role} schema of \`${name}\` resolves asynchronously: await it and pass jsonSchema(resolved)`,
    )
  }
  // A plain JSON copy: converters may hang extras on the object (zod's adds a non-enumerable
  // `~standard`), which the registry rightly refuses as not JSON.
  return JSON.parse(JSON.stringify(json)) as JsonSchemaNode
}

type Issue = { readonly message?: unknown; readonly path?: readonly unknown[] }

/** The AI SDK's validation failure as our violations: one per Standard Schema issue when it lists them. */
function violationsOf(error: unknown): ArgumentsParse {
  const issues = (error as { issues?: unknown } | null)?.issues
  if (Array.isArray(issues) && issues.length > 0) {
    return {
      violations: (issues as Issue[]).map((issue) => ({
        path: [
          '$',
          ...(issue.path ?? []).map((key) =>
            typeof key === 'object' ? String((key as { key?: unknown }).key) : String(key),
          ),
        ].join('.'),
        message: typeof issue.message === 'string' ? issue.message : 'invalid value',
      })),
    }
  }
  return { violations: [{ path: '$', message: error instanceof Error ? error.message : String(error) }] }
}

/** An AI SDK output as canonical JSON, the way the AI SDK itself normalizes one (`toJSON`, no `undefined`). */
function toJsonValue(value: unknown): JsonValue {
  if (value === undefined) return null
  return JSON.parse(JSON.stringify(value)) as JsonValue
}

function render(_args: unknown, value: JsonValue): ToolContent {
  return [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }]
}

/** Run the AI SDK body: a streamed (async iterable) body reports each value as progress, the last is the value. */
async function runBody(tool: AiSdkTool, args: unknown, exec: ToolRunContext): Promise<JsonValue> {
  const output = tool.execute!(args as never, {
    toolCallId: exec.callId,
    messages: [],
    abortSignal: exec.signal,
    context: undefined,
  })
  if (!isAsyncIterable(output)) return toJsonValue(await output)
  let last: unknown
  for await (const part of output) {
    last = part
    exec.progress({ message: typeof part === 'string' ? part : (JSON.stringify(part) ?? '') })
  }
  return toJsonValue(last)
}

/**
 * Our definition of one AI SDK tool: its input schema's JSON Schema as `parameters` (the
 * schema's own `validate` as `parseArguments`, so refinements and transforms hold), its output
 * schema (when it has one) as `output.schema`, its `execute` as the body. Throws a `TypeError`
 * for a tool that cannot run in the registry (provider tools, tools without `execute`,
 * descriptions computed per call, schemas that resolve asynchronously).
 */
export function aiSdkToolDefinition(name: string, tool: AiSdkTool): ToolDefinition {
  if (typeof tool !== 'object' || tool === null)
    throw new TypeError(`registerAiSdkTools(): \`${name}\` is not a tool`)
  if (tool.type === 'provider')
    throw new TypeError(
      `registerAiSdkTools(): \`${name}\` is a provider tool: it runs at the provider, not in the registry`,
    )
  if (typeof tool.execute !== 'function')
    throw new TypeError(
      `registerAiSdkTools(): \`${name}\` has no \`execute\`: the registry can only hold tools it can run`,
    )
  if (tool.description !== undefined && typeof tool.description !== 'string')
    throw new TypeError(
      `registerAiSdkTools(): \`${name}\` computes its description per call: give it a string`,
    )
  const input = asSchema(tool.inputSchema)
  const validate = input.validate
  const definition: ToolDefinition = {
    name,
    description: tool.description ?? '',
    parameters: jsonSchemaOf(name, 'input', input) as ObjectJsonSchema,
    output: {
      schema:
        tool.outputSchema === undefined ? {} : jsonSchemaOf(name, 'output', asSchema(tool.outputSchema)),
      render,
    },
    execute: (args: unknown, exec: ToolRunContext) => runBody(tool, args, exec),
  }
  if (validate === undefined) return definition
  return {
    ...definition,
    async parseArguments(args: JsonValue): Promise<ArgumentsParse> {
      const result = await validate(args)
      return result.success ? { value: result.value } : violationsOf(result.error)
    },
  }
}

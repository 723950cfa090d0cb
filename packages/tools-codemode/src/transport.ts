/**
 * The `run_code` transport definition: its argument schema, canonical output schema and
 * rendering. The body is injected (the dispatch bridge), so this module stays declarative.
 */
import type { JsonValue, ObjectJsonSchema, ToolDefinition, ToolRunContext } from '@dsh/tools-core'
import { RESERVED_TOOL_NAME } from '@dsh/tools-core'
import type { CodeLanguage } from './code-runtime'
import { type RunCodeOutput, renderRunCodeOutput } from './render-output'

/** The arguments of `run_code`. */
export interface RunCodeArgs {
  /** The program: the body of an async function (TypeScript) or a module with top-level `return` (Python). */
  readonly code: string
  /** A short summary of what the program does. */
  readonly description: string
}

const CODE_DESCRIPTION: Record<string, string | undefined> = {
  typescript:
    'The body of an async TypeScript function (erasable syntax only). Call tools as `await tools.name(args)`; ' +
    '`return` a value and/or `console.log(...)` what you need back.',
  python:
    'A Python program run as the body of an async function. Call tools as `await tools.name(args)`; ' +
    'use a top-level `return` and/or `print(...)` for what you need back.',
}

const LANGUAGE_NAMES: Record<string, string | undefined> = { typescript: 'TypeScript', python: 'Python' }

/** The canonical output schema of `run_code`: `{ logs: string[], result?: JsonValue }`. */
export const RUN_CODE_OUTPUT_SCHEMA = {
  type: 'object',
  properties: {
    logs: { type: 'array', items: { type: 'string' }, description: 'Lines the program printed, in order.' },
    result: { description: 'The JSON value the program returned; absent when it returned nothing.' },
  },
  required: ['logs'],
  additionalProperties: false,
} as const satisfies ObjectJsonSchema

/** The argument schema of `run_code` for one runtime language. */
export function runCodeParameters(language: CodeLanguage): ObjectJsonSchema {
  return {
    type: 'object',
    properties: {
      code: { type: 'string', description: CODE_DESCRIPTION[language] ?? 'The program to run.' },
      description: { type: 'string', description: 'A short summary of what the program does.' },
    },
    required: ['code', 'description'],
  }
}

/** Options of {@link createRunCodeTransport}. */
export interface RunCodeTransportOptions {
  /** The loaded runtime's language (worded into the argument and tool descriptions). */
  readonly language: CodeLanguage
  /** The body: runs the program and returns its canonical output, or throws `CodeRunFailedError`. */
  execute(args: RunCodeArgs, exec: ToolRunContext): Promise<RunCodeOutput>
}

/**
 * Build the `run_code` transport definition. Exclusive (a program may call mutating tools),
 * so it never overlaps other native calls.
 */
export function createRunCodeTransport(
  options: RunCodeTransportOptions,
): ToolDefinition<RunCodeArgs, JsonValue> {
  const languageName = LANGUAGE_NAMES[options.language] ?? String(options.language)
  return {
    name: RESERVED_TOOL_NAME,
    description:
      `Run a ${languageName} program that calls the tools of the SDK described in the system prompt. ` +
      'Only what the program prints or returns comes back.',
    parameters: runCodeParameters(options.language),
    output: {
      schema: RUN_CODE_OUTPUT_SCHEMA as unknown as ObjectJsonSchema,
      render: (_args, value) => [
        { type: 'text', text: renderRunCodeOutput(value as unknown as RunCodeOutput) },
      ],
    },
    execute: (args, exec) => options.execute(args, exec) as unknown as Promise<JsonValue>,
    isConcurrencySafe: () => false,
  }
}

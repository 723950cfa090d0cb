/**
 * The TypeScript SDK renderer: `JsonValue`, `ToolArgsMap`, `ToolOutputMap`, `ToolName`,
 * `ToolCallError` and the `tools` namespace, preceded by the usage notes.
 */
import { jsonSchemaToTs, RESERVED_TOOL_NAME, type ToolSchema } from '@dsh/tools-core'
import { quotedString, tsDocComment } from '@dsh/tools-schema'
import { fenced } from './fence'
import { FragmentCache, sortByName } from './fragment-cache'
import { TYPESCRIPT_USAGE_NOTES } from './usage-notes'

interface TsFragment {
  readonly args: string
  readonly output: string
  readonly binding: string
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/** A property key: bare when it is an identifier, JSON-quoted otherwise. */
function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : quotedString(name)
}

/** A tool description as a doc comment at two spaces (hostile text escaped). */
function docComment(text: string): string {
  return tsDocComment(text, '  ')
}

/** A type expression nested one level (two spaces) deeper than it was rendered. */
function nested(type: string): string {
  return type.replace(/\n/g, '\n  ')
}

function renderFragment(tool: ToolSchema): TsFragment {
  const key = propertyKey(tool.name)
  const quoted = quotedString(tool.name)
  const description = tool.description.trim()
  return {
    args: `  ${key}: ${nested(jsonSchemaToTs(tool.parameters))};\n`,
    output: `  ${key}: ${nested(jsonSchemaToTs(tool.outputSchema))};\n`,
    binding:
      (description.length > 0 ? docComment(description) : '') +
      `  ${key}: (args: ToolArgsMap[${quoted}]) => Promise<ToolOutputMap[${quoted}]>;\n`,
  }
}

const cache = new FragmentCache(renderFragment)

const JSON_VALUE_DECLARATION = `type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
`

const ERROR_DECLARATION = `type ToolName = keyof ToolArgsMap;

/** The rejection of a failed tool call. */
declare class ToolCallError extends Error {
  readonly name: "ToolCallError";
  /** The tool whose call failed. */
  readonly toolName: string;
}
`

/**
 * Render the TypeScript SDK section text for a set of visible tools (sorted by name; the
 * `run_code` transport itself is skipped). Byte-identical output for an unchanged tool set.
 */
export function renderTypeScriptSdk(tools: readonly ToolSchema[]): string {
  const sorted = sortByName(tools, RESERVED_TOOL_NAME)
  let args = ''
  let outputs = ''
  let bindings = ''
  for (const tool of sorted) {
    const fragment = cache.get(tool)
    args += fragment.args
    outputs += fragment.output
    bindings += fragment.binding
  }
  const code =
    `${JSON_VALUE_DECLARATION}\ninterface ToolArgsMap {\n${args}}\n\ninterface ToolOutputMap {\n${outputs}}\n\n` +
    `${ERROR_DECLARATION}\ndeclare const tools: {\n${bindings}};`
  return `${TYPESCRIPT_USAGE_NOTES}\n\n${fenced('typescript', code)}`
}

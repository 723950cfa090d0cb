/**
 * The TypeScript SDK renderer: `JsonValue`, the named types of referenced schemas,
 * `ToolCallError`, the `tools` namespace and the derived `ToolName`, `ToolArgsMap` and
 * `ToolOutputMap`, preceded by the usage notes. Every tool is declared once — as a `tools`
 * method carrying its description — and the maps are mapped types over those methods, so the
 * prompt pays for each schema once.
 */
import { RESERVED_TOOL_NAME, type ToolSchema } from '@dsh/tools-core'
import {
  createTsRenderContext,
  jsonSchemaToTs,
  quotedString,
  type TsRenderContext,
  toPythonClassName,
  tsDocComment,
} from '@dsh/tools-schema'
import { fenced } from './fence'
import { FragmentCache, sortByName } from './fragment-cache'
import { TYPESCRIPT_USAGE_NOTES } from './usage-notes'

interface TsFragment {
  readonly binding: string
  /** Named types this tool introduced (`$ref` targets), in declaration order. */
  readonly declarations: readonly { readonly name: string; readonly text: string }[]
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/** A property key: bare when it is an identifier, JSON-quoted otherwise. */
function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : quotedString(name)
}

/** A type expression nested one level (two spaces) deeper than it was rendered. */
function nested(type: string): string {
  return type.replace(/\n/g, '\n  ')
}

/** One tool as a `tools` method: its description, then its argument and result types. */
function binding(tool: ToolSchema, context: TsRenderContext): string {
  const stem = toPythonClassName(tool.name)
  const args = jsonSchemaToTs(tool.parameters, context.named(`${stem}Args`))
  const output = jsonSchemaToTs(tool.outputSchema, context.named(`${stem}Output`))
  const description = tool.description.trim()
  return (
    (description.length > 0 ? tsDocComment(description, '  ') : '') +
    `  ${propertyKey(tool.name)}(args: ${nested(args)}): Promise<${nested(output)}>;\n`
  )
}

const cache = new FragmentCache<TsFragment>((tool) => {
  const context = createTsRenderContext()
  return { binding: binding(tool, context), declarations: context.entries() }
})

const JSON_VALUE_DECLARATION = `type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
`

const ERROR_DECLARATION = `/** The rejection of a failed tool call. */
declare class ToolCallError extends Error {
  readonly name: "ToolCallError";
  /** The tool whose call failed. */
  readonly toolName: string;
}
`

const MAP_DECLARATIONS = `type ToolName = keyof typeof tools;
type ToolArgsMap = { [K in ToolName]: Parameters<(typeof tools)[K]>[0] };
type ToolOutputMap = { [K in ToolName]: Awaited<ReturnType<(typeof tools)[K]>> };`

function assemble(bindings: string, declarations: string): string {
  const named = declarations.length > 0 ? `\n${declarations}` : ''
  const code =
    `${JSON_VALUE_DECLARATION}${named}\n${ERROR_DECLARATION}\n` +
    `declare const tools: {\n${bindings}};\n\n${MAP_DECLARATIONS}`
  return `${TYPESCRIPT_USAGE_NOTES}\n\n${fenced('typescript', code)}`
}

/**
 * Merges the tools' own named types: identical declarations (same name, same bytes) are kept
 * once; undefined when two tools mean different types by one name.
 */
function mergeDeclarations(fragments: readonly TsFragment[]): string | undefined {
  const texts = new Map<string, string>()
  let out = ''
  for (const fragment of fragments) {
    for (const { name, text } of fragment.declarations) {
      const seen = texts.get(name)
      if (seen === text) continue
      if (seen !== undefined) return undefined
      texts.set(name, text)
      out += text
    }
  }
  return out
}

/**
 * Render the TypeScript SDK section text for a set of visible tools (sorted by name; the
 * `run_code` transport itself is skipped). Byte-identical output for an unchanged tool set.
 * Referenced schemas become named types declared once; when two tools would declare different
 * types under one name, the set is rendered through one shared context, which suffixes the
 * later name (`Node2`) and still shares byte-identical definitions.
 */
export function renderTypeScriptSdk(tools: readonly ToolSchema[]): string {
  const sorted = sortByName(tools, RESERVED_TOOL_NAME)
  const fragments = sorted.map((tool) => cache.get(tool))
  const merged = mergeDeclarations(fragments)
  if (merged !== undefined) {
    let bindings = ''
    for (const fragment of fragments) bindings += fragment.binding
    return assemble(bindings, merged)
  }
  const context = createTsRenderContext()
  let bindings = ''
  for (const tool of sorted) bindings += binding(tool, context)
  return assemble(bindings, context.declarations())
}

/**
 * The Python SDK renderer: named `TypedDict`s for every tool's arguments and output (through
 * the schema package's Python naming context), `ToolCallError`, and a `tools` object whose
 * methods are the bindings (exotic names through `tools["name"]`), preceded by the usage notes.
 */
import { RESERVED_TOOL_NAME, type ToolSchema } from '@dsh/tools-core'
import {
  createPyRenderContext,
  isPythonFieldName,
  jsonSchemaToPy,
  type PyRenderContext,
  toPythonClassName,
} from '@dsh/tools-schema'
import { FragmentCache, sortByName } from './fragment-cache'
import { PYTHON_USAGE_NOTES } from './usage-notes'

interface PyFragment {
  /** Class declarations this tool introduced (children before parents). */
  readonly declarations: string
  readonly classNames: readonly string[]
  readonly argsType: string
  readonly outputType: string
}

/** SDK symbols generated classes must not shadow. */
const SDK_NAMES = ['Tools', 'ToolCallError', 'Awaitable', 'Callable', 'overload', 'tools', 'Exception']

function renderTool(
  tool: ToolSchema,
  context: PyRenderContext,
): Omit<PyFragment, 'declarations' | 'classNames'> {
  const stem = toPythonClassName(tool.name)
  return {
    argsType: jsonSchemaToPy(tool.parameters, context.named(`${stem}Args`)),
    outputType: jsonSchemaToPy(tool.outputSchema, context.named(`${stem}Output`)),
  }
}

const cache = new FragmentCache<PyFragment>((tool) => {
  const context = createPyRenderContext({ reservedNames: SDK_NAMES })
  const types = renderTool(tool, context)
  return { ...types, declarations: context.declarations(), classNames: context.declaredNames() }
})

/** A docstring at eight spaces; backslashes and triple quotes escaped. */
function docstring(text: string): string {
  const body = text.replace(/\\/g, '\\\\').replace(/"""/g, '\\"\\"\\"')
  const lines = body.split(/\r\n|\r|\n/)
  const indented = lines
    .map((line, i) => (i === 0 || line.length === 0 ? line : `        ${line}`))
    .join('\n')
  const closing = lines.length > 1 ? '\n        ' : indented.endsWith('"') ? ' ' : ''
  return `        """${indented}${closing}"""\n`
}

function method(tool: ToolSchema, fragment: Pick<PyFragment, 'argsType' | 'outputType'>): string {
  const description = tool.description.trim()
  return (
    `    async def ${tool.name}(self, args: ${fragment.argsType}) -> ${fragment.outputType}:\n` +
    (description.length > 0 ? docstring(description) : '') +
    '        ...\n'
  )
}

function subscript(
  tool: ToolSchema,
  fragment: Pick<PyFragment, 'argsType' | 'outputType'>,
  overloaded: boolean,
): string {
  const description = tool.description.trim()
  return (
    (overloaded ? '    @overload\n' : '') +
    `    def __getitem__(self, name: Literal[${JSON.stringify(tool.name)}]) -> ` +
    `Callable[[${fragment.argsType}], Awaitable[${fragment.outputType}]]:\n` +
    (description.length > 0 ? docstring(description) : '') +
    '        ...\n'
  )
}

const PRELUDE = `${PYTHON_USAGE_NOTES}

\`\`\`python
from typing import Any, Awaitable, Callable, Literal, NotRequired, TypedDict, Union, overload

JsonValue = Any
`

const ERROR_DECLARATION = `class ToolCallError(Exception):
    """Raised by a failed tool call."""
    tool_name: str
    """The tool whose call failed."""
    message: str
    """What went wrong, human-readable."""
`

function assemble(
  tools: readonly ToolSchema[],
  declarations: string,
  types: readonly Pick<PyFragment, 'argsType' | 'outputType'>[],
): string {
  const methods: string[] = []
  const subscripts: string[] = []
  const exotic = tools.filter((tool) => !isPythonFieldName(tool.name)).length
  tools.forEach((tool, i) => {
    if (isPythonFieldName(tool.name)) methods.push(method(tool, types[i]!))
    else subscripts.push(subscript(tool, types[i]!, exotic > 1))
  })
  const members = [...methods, ...subscripts].join('\n')
  const body = members.length > 0 ? members : '    pass\n'
  const classes = declarations.length > 0 ? `\n${declarations}\n\n` : '\n'
  return `${PRELUDE}${classes}\n${ERROR_DECLARATION}\n\nclass Tools:\n${body}\n\ntools: Tools\n\`\`\``
}

/**
 * Render the Python SDK section text for a set of visible tools (sorted by name; `run_code`
 * skipped). Class names come from the tool names (`read_file` → `ReadFileArgs`,
 * `ReadFileOutput`); when two tools would declare the same class name, the whole set is
 * rendered through one shared naming context, which suffixes the later names (`X2`).
 */
export function renderPythonSdk(tools: readonly ToolSchema[]): string {
  const sorted = sortByName(tools, RESERVED_TOOL_NAME)
  const fragments = sorted.map((tool) => cache.get(tool))
  const seen = new Set<string>()
  let collision = false
  for (const fragment of fragments) {
    for (const name of fragment.classNames) {
      if (seen.has(name)) collision = true
      seen.add(name)
    }
  }
  if (!collision) {
    const declarations = fragments
      .map((fragment) => fragment.declarations)
      .filter((text) => text.length > 0)
      .join('\n\n')
    return assemble(sorted, declarations, fragments)
  }
  const context = createPyRenderContext({ reservedNames: SDK_NAMES })
  const types = sorted.map((tool) => renderTool(tool, context))
  return assemble(sorted, context.declarations(), types)
}

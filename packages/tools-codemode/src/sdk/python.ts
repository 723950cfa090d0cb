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
  pyDocstring,
  quotedString,
  toPythonClassName,
} from '@dsh/tools-schema'
import { fenced } from './fence'
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

/**
 * Names a `Tools` method must not take: a method shadows, in the class body, every later
 * annotation that uses the same name (typing names, builtins the types use, the SDK's own).
 */
const CLASS_SCOPE_NAMES = new Set([
  ...SDK_NAMES,
  'Any',
  'Literal',
  'NotRequired',
  'TypedDict',
  'Union',
  'JsonValue',
  'str',
  'int',
  'float',
  'bool',
  'list',
  'dict',
  'self',
])

/**
 * Whether a tool can be a `Tools` method (`tools.name(args)`). Anything else, including
 * keywords, dunders (`__init__`, `__getitem__`, `__class__`), private-looking names and names
 * that would shadow a type the SDK uses, is reachable only as `tools["name"](args)`.
 */
function isMethodName(name: string, classNames: ReadonlySet<string>): boolean {
  return (
    isPythonFieldName(name) && !name.startsWith('_') && !CLASS_SCOPE_NAMES.has(name) && !classNames.has(name)
  )
}

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

/** A tool description as a docstring at eight spaces (hostile text escaped). */
function docstring(text: string): string {
  return pyDocstring(text, '        ')
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
    `    def __getitem__(self, name: Literal[${quotedString(tool.name)}]) -> ` +
    `Callable[[${fragment.argsType}], Awaitable[${fragment.outputType}]]:\n` +
    (description.length > 0 ? docstring(description) : '') +
    '        ...\n'
  )
}

const IMPORTS = `from typing import Any, Awaitable, Callable, Literal, NotRequired, TypedDict, Union, overload

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
  const classNames = new Set(classNamesOf(declarations))
  const exotic = tools.filter((tool) => !isMethodName(tool.name, classNames)).length
  tools.forEach((tool, i) => {
    if (isMethodName(tool.name, classNames)) methods.push(method(tool, types[i]!))
    else subscripts.push(subscript(tool, types[i]!, exotic > 1))
  })
  const members = [...methods, ...subscripts].join('\n')
  const body = members.length > 0 ? members : '    pass\n'
  const classes = declarations.length > 0 ? `\n${declarations}\n\n` : '\n'
  const code = `${IMPORTS}${classes}\n${ERROR_DECLARATION}\n\nclass Tools:\n${body}\n\ntools: Tools`
  return `${PYTHON_USAGE_NOTES}\n\n${fenced('python', code)}`
}

/** Names of the generated classes (declarations start with `class Name(TypedDict):`). */
function classNamesOf(declarations: string): string[] {
  return [...declarations.matchAll(/^class ([A-Za-z_][A-Za-z0-9_]*)\(/gm)].map((match) => match[1]!)
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

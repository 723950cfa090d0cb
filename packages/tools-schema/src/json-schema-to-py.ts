import { pyComment, pyDocstring, quotedString } from './doc-comments'
import { concat, dedupeShort, previewJson } from './internal/codegen-text'
import { type CodegenDoc, type CodegenField, readDoc, viewOf } from './internal/codegen-view'
import { PYTHON_KEYWORDS, type PyRenderContext, toPythonClassName } from './py-render-context'

type Task =
  | { readonly t: 'node'; readonly node: unknown; readonly name: string }
  | { readonly t: 'array'; readonly node: object }
  | { readonly t: 'union'; readonly node: object; readonly count: number }
  | {
      readonly t: 'object'
      readonly node: object
      readonly fields: readonly CodegenField[]
      readonly className: string
    }

/** Derived names stay short so deep schemas do not build huge strings. */
function derive(name: string, suffix: string): string {
  return (name + suffix).slice(0, 80)
}

const PY_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/
const DICT = 'dict[str, Any]'

/**
 * True when `name` can be a `TypedDict` attribute: an identifier, not a keyword, and not
 * starting with `__` (dunders are Python's own; `__x` would be name-mangled in a class body).
 */
export function isPythonFieldName(name: string): boolean {
  return PY_IDENTIFIER.test(name) && !PYTHON_KEYWORDS.has(name) && !name.startsWith('__')
}

function pyLiteral(value: unknown): string | undefined {
  if (value === null) return 'None'
  if (value === true) return 'True'
  if (value === false) return 'False'
  if (typeof value === 'string') return quotedString(value)
  if (typeof value === 'number' && Number.isInteger(value)) return String(value)
  return undefined
}

const SCALAR_PY: Record<string, string> = {
  string: 'str',
  number: 'float',
  integer: 'int',
  boolean: 'bool',
  null: 'None',
}

function literalsType(type: string | undefined, values: readonly unknown[]): string {
  const texts = values.map(pyLiteral)
  if (texts.some((text) => text === undefined))
    return type !== undefined ? (SCALAR_PY[type] ?? 'Any') : 'float'
  const unique = dedupeShort(texts as string[])
  return `Literal[${unique.join(', ')}]`
}

/** Examples shown per field; more would only lengthen the prompt. */
const MAX_EXAMPLES = 3

/** Plain-text form of annotations for Python comments and docstrings. */
function pyDocText(doc: CodegenDoc): string {
  const parts: string[] = []
  if (doc.title !== undefined) parts.push(doc.title)
  if (doc.description !== undefined) parts.push(doc.description)
  if (doc.hasDefault) parts.push(`Default: ${previewJson(doc.default)}`)
  for (const example of doc.examples.slice(0, MAX_EXAMPLES)) parts.push(`Example: ${previewJson(example)}`)
  if (doc.deprecated) parts.push('Deprecated.')
  return parts.join('\n')
}

function classText(name: string, node: object, fields: readonly CodegenField[], types: string[]): string {
  let out = `class ${name}(TypedDict):\n`
  const doc = readDoc(node)
  if (doc !== undefined) out += pyDocstring(pyDocText(doc), '    ')
  if (fields.length === 0 && doc === undefined) out += '    pass\n'
  fields.forEach((field, i) => {
    if (field.doc !== undefined) out += pyComment(pyDocText(field.doc), '    ')
    const type = types[i]!
    out += `    ${field.name}: ${field.required ? type : `NotRequired[${type}]`}\n`
  })
  return out.trimEnd()
}

function expand(
  task: Extract<Task, { t: 'node' }>,
  tasks: Task[],
  results: string[],
  active: Set<object>,
  ctx: PyRenderContext | undefined,
): void {
  const { node, name } = task
  if (typeof node === 'object' && node !== null && active.has(node)) {
    results.push('Any')
    return
  }
  const view = viewOf(node)
  switch (view.kind) {
    case 'unknown':
    case 'any':
      results.push('Any')
      return
    case 'scalar':
      results.push(SCALAR_PY[view.type]!)
      return
    case 'literals':
      results.push(literalsType(view.type, view.values))
      return
    case 'array':
      if (!view.hasItems) {
        results.push('list[Any]')
        return
      }
      active.add(node as object)
      tasks.push(
        { t: 'array', node: node as object },
        { t: 'node', node: view.items, name: derive(name, 'Item') },
      )
      return
    case 'object': {
      const typed = ctx !== undefined && (view.fields.length > 0 || view.closed)
      if (!typed || !view.fields.every((field) => isPythonFieldName(field.name))) {
        results.push(DICT)
        return
      }
      const className = ctx.reserveName(name)
      active.add(node as object)
      tasks.push({ t: 'object', node: node as object, fields: view.fields, className })
      for (let i = view.fields.length - 1; i >= 0; i--) {
        const field = view.fields[i]!
        tasks.push({ t: 'node', node: field.node, name: derive(className, toPythonClassName(field.name)) })
      }
      return
    }
    case 'union':
      active.add(node as object)
      tasks.push({ t: 'union', node: node as object, count: view.branches.length })
      for (let i = view.branches.length - 1; i >= 0; i--) {
        tasks.push({ t: 'node', node: view.branches[i], name: derive(name, `Option${i + 1}`) })
      }
      return
  }
}

function render(root: unknown, ctx: PyRenderContext | undefined): string {
  const tasks: Task[] = [{ t: 'node', node: root, name: ctx?.baseName ?? 'Model' }]
  const results: string[] = []
  const active = new Set<object>()
  while (tasks.length > 0) {
    const task = tasks.pop()!
    switch (task.t) {
      case 'node':
        expand(task, tasks, results, active, ctx)
        break
      case 'array':
        active.delete(task.node)
        results.push(`list[${results.pop()!}]`)
        break
      case 'union': {
        active.delete(task.node)
        const unique = dedupeShort(results.splice(results.length - task.count, task.count))
        results.push(unique.length === 1 ? unique[0]! : `Union[${concat(unique, ', ')}]`)
        break
      }
      case 'object': {
        active.delete(task.node)
        const types = results.splice(results.length - task.fields.length, task.fields.length)
        ctx!.addDeclaration(task.className, classText(task.className, task.node, task.fields, types))
        results.push(task.className)
        break
      }
    }
  }
  return results[0] ?? 'Any'
}

/**
 * Renders a JSON Schema node as a Python type annotation (`typing` names: `Any`, `Literal`,
 * `Union`, `NotRequired`, `TypedDict`). Never throws: unsupported constructs degrade to `Any`.
 * Without `ctx` every object renders as `dict[str, Any]`; with a `PyRenderContext` objects become
 * named `TypedDict` classes registered in the context (root named `ctx.baseName`, nested names
 * derived from it, e.g. `ReadArgsItems`), except objects whose field names are not legal Python
 * attributes (or keywords), which stay `dict[str, Any]`. Deterministic and stack-safe.
 */
export function jsonSchemaToPy(node: unknown, ctx?: PyRenderContext): string {
  try {
    return render(node, ctx)
  } catch {
    return 'Any'
  }
}

import { pyComment, pyDocstring, quotedString } from './doc-comments'
import { resolveRef } from './internal/codegen-refs'
import { concat, dedupeShort, previewJson } from './internal/codegen-text'
import {
  type CodegenDoc,
  type CodegenField,
  type CodegenView,
  readDoc,
  refSiblingsApply,
  viewOf,
} from './internal/codegen-view'
import { rootPointerRefs } from './internal/root-pointer-refs'
import { PYTHON_KEYWORDS, type PyRenderContext, toPythonClassName } from './py-render-context'

type Task =
  | {
      readonly t: 'node'
      readonly node: unknown
      readonly name: string
      readonly reserved?: string | undefined
    }
  | { readonly t: 'wrap'; readonly node: object; readonly open: string }
  | { readonly t: 'union'; readonly node: object; readonly count: number; readonly open?: string }
  | {
      readonly t: 'object'
      readonly node: object
      readonly fields: readonly CodegenField[]
      readonly index: number
      readonly className: string
    }
  | { readonly t: 'declare'; readonly name: string; readonly saved: Set<object> }
  | { readonly t: 'leave'; readonly node: object }
  | { readonly t: 'result'; readonly text: string }

/** Derived names stay short so deep schemas do not build huge strings. */
function derive(name: string, suffix: string): string {
  return (name + suffix).slice(0, 80)
}

const PY_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/
const DICT = 'dict[str, Any]'
/** Reference expansions per render without a context (a shared-reference bomb stays linear). */
const INLINE_REF_BUDGET = 1_000

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
  // `Literal` takes only scalars (PEP 586): other constants widen to their declared type.
  if (texts.some((text) => text === undefined)) return type !== undefined ? (SCALAR_PY[type] ?? 'Any') : 'Any'
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
  for (const [label, value] of doc.facts) parts.push(value.length > 0 ? `${label}: ${value}` : `${label}.`)
  if (doc.hasDefault) parts.push(`Default: ${previewJson(doc.default)}`)
  for (const example of doc.examples.slice(0, MAX_EXAMPLES)) parts.push(`Example: ${previewJson(example)}`)
  if (doc.deprecated) parts.push('Deprecated.')
  return parts.join('\n')
}

function classText(task: Extract<Task, { t: 'object' }>, types: string[], index: string | undefined): string {
  const { className: name, node, fields } = task
  let out = `class ${name}(TypedDict):\n`
  const doc = readDoc(node)
  if (doc !== undefined) out += pyDocstring(pyDocText(doc), '    ')
  if (fields.length === 0 && doc === undefined) out += '    pass\n'
  fields.forEach((field, i) => {
    if (field.doc !== undefined) out += pyComment(pyDocText(field.doc), '    ')
    const type = types[i]!
    out += `    ${field.name}: ${field.required ? type : `NotRequired[${type}]`}\n`
  })
  // TypedDict cannot type undeclared keys; the model still learns what they hold.
  if (index !== undefined) out += pyComment(`Other keys: ${index}`, '    ')
  return out.trimEnd()
}

/** `allOf` of plain objects as one object schema, or undefined when they do not merge cleanly. */
function mergeObjects(branches: readonly unknown[], root: unknown, refSiblings: boolean): object | undefined {
  const properties: Record<string, unknown> = {}
  const required: string[] = []
  for (let branch of branches) {
    // Follow a few references so `allOf: [{ $ref: Base }, { …extra }]` merges too.
    for (let hops = 0; hops < 8; hops++) {
      const view = viewOf(branch, refSiblings)
      if (view.kind !== 'ref') break
      branch = resolveRef(root, view.ref, '')?.target
    }
    const view = viewOf(branch, refSiblings)
    if (view.kind === 'any') continue
    if (view.kind !== 'object' || view.index.length > 0) return undefined
    for (const field of view.fields) {
      if (Object.hasOwn(properties, field.name)) return undefined
      Object.defineProperty(properties, field.name, { value: field.node, enumerable: true })
      if (field.required) required.push(field.name)
    }
  }
  return { type: 'object', properties, required }
}

/** Whether an object view becomes a `TypedDict` class (given a context). */
function isClassObject(view: Extract<CodegenView, { kind: 'object' }>): boolean {
  return (
    (view.fields.length > 0 || (view.closed && view.index.length === 0)) &&
    view.fields.every((field) => isPythonFieldName(field.name))
  )
}

interface State {
  readonly tasks: Task[]
  readonly results: string[]
  /** Nodes being rendered (cycle guard); each named declaration renders with its own. */
  active: Set<object>
  readonly root: unknown
  /** Whether keywords beside `$ref` apply in this document (see `viewOf`). */
  readonly refSiblings: boolean
  readonly ctx: PyRenderContext | undefined
  inlineRefs: number
}

function expandRef(node: object, ref: string, name: string, state: State): void {
  const { tasks, results, ctx } = state
  const resolved = resolveRef(state.root, ref, ctx?.baseName ?? 'Model')
  if (resolved === undefined) {
    results.push('Any')
    return
  }
  if (ctx === undefined) {
    if (state.active.has(node) || ++state.inlineRefs > INLINE_REF_BUDGET) {
      results.push('Any')
      return
    }
    state.active.add(node)
    tasks.push({ t: 'leave', node }, { t: 'node', node: resolved.target, name })
    return
  }
  const root = state.root as object
  const known = ctx.refs.nameOf(root, resolved)
  if (known !== undefined) {
    results.push(known)
    return
  }
  const reserved = ctx.reserveName(resolved.stem)
  ctx.refs.assign(root, resolved, reserved)
  tasks.push({ t: 'result', text: reserved }, { t: 'declare', name: reserved, saved: state.active })
  // The target may be in progress (a `#` reference inside the root): its name breaks the cycle.
  state.active = new Set()
  tasks.push({ t: 'node', node: resolved.target, name: reserved, reserved })
}

function expand(task: Extract<Task, { t: 'node' }>, state: State): void {
  const { tasks, results, active, ctx } = state
  const { node, name } = task
  if (typeof node === 'object' && node !== null && active.has(node)) {
    results.push('Any')
    return
  }
  const view = viewOf(node, state.refSiblings)
  const self = node as object
  switch (view.kind) {
    case 'unknown':
    case 'any':
    case 'never':
      results.push('Any')
      return
    case 'scalar':
      results.push(SCALAR_PY[view.type]!)
      return
    case 'literals':
      results.push(literalsType(view.type, view.values))
      return
    case 'ref':
      expandRef(self, view.ref, name, state)
      return
    case 'array':
      if (!view.hasItems) {
        results.push('list[Any]')
        return
      }
      active.add(self)
      tasks.push(
        { t: 'wrap', node: self, open: 'list[' },
        { t: 'node', node: view.items, name: derive(name, 'Item') },
      )
      return
    case 'tuple': {
      // A JSON array arrives as a `list`: its element type is the union of the positions.
      const items = view.rest === false ? view.prefix : [...view.prefix, view.rest]
      active.add(self)
      tasks.push({ t: 'union', node: self, count: items.length, open: 'list[' })
      for (let i = items.length - 1; i >= 0; i--) {
        tasks.push({ t: 'node', node: items[i], name: derive(name, `Item${i + 1}`) })
      }
      return
    }
    case 'object': {
      if (ctx === undefined || !isClassObject(view)) {
        if (view.index.length === 0) {
          results.push(DICT)
          return
        }
        active.add(self)
        tasks.push({ t: 'union', node: self, count: view.index.length, open: 'dict[str, ' })
        for (let i = view.index.length - 1; i >= 0; i--) tasks.push({ t: 'node', node: view.index[i], name })
        return
      }
      const className = task.reserved ?? ctx.reserveName(name)
      active.add(self)
      tasks.push({ t: 'object', node: self, fields: view.fields, index: view.index.length, className })
      for (let i = view.index.length - 1; i >= 0; i--) tasks.push({ t: 'node', node: view.index[i], name })
      for (let i = view.fields.length - 1; i >= 0; i--) {
        const field = view.fields[i]!
        tasks.push({ t: 'node', node: field.node, name: derive(className, toPythonClassName(field.name)) })
      }
      return
    }
    case 'intersection': {
      const merged = mergeObjects(view.branches, state.root, state.refSiblings)
      const kept = view.branches.filter((branch) => viewOf(branch, state.refSiblings).kind !== 'any')
      const next = merged ?? (kept.length === 1 ? kept[0] : undefined)
      // Anything else has no Python spelling: `Any` (the docs still carry the schema's notes).
      if (next === undefined) {
        results.push('Any')
        return
      }
      active.add(self)
      tasks.push({ t: 'leave', node: self }, { t: 'node', node: next, name, reserved: task.reserved })
      return
    }
    case 'union':
      active.add(self)
      tasks.push({ t: 'union', node: self, count: view.branches.length })
      for (let i = view.branches.length - 1; i >= 0; i--) {
        tasks.push({ t: 'node', node: view.branches[i], name: derive(name, `Option${i + 1}`) })
      }
      return
  }
}

function union(texts: string[]): string {
  if (texts.includes('Any')) return 'Any'
  const unique = dedupeShort(texts)
  return unique.length === 1 ? unique[0]! : `Union[${concat(unique, ', ')}]`
}

function render(root: unknown, ctx: PyRenderContext | undefined): string {
  const name = ctx?.baseName ?? 'Model'
  const refSiblings = refSiblingsApply(root)
  // A root class is named up front, so a `#` reference inside it names the same class.
  const view = viewOf(root, refSiblings)
  let reserved: string | undefined
  if (ctx !== undefined && view.kind === 'object' && isClassObject(view)) {
    reserved = ctx.reserveName(name)
    ctx.refs.assign(root as object, { target: root, pointer: '', stem: name }, reserved)
  }
  const state: State = {
    tasks: [{ t: 'node', node: root, name, reserved }],
    results: [],
    active: new Set(),
    root,
    refSiblings,
    ctx,
    inlineRefs: 0,
  }
  const { tasks, results } = state
  while (tasks.length > 0) {
    const task = tasks.pop()!
    switch (task.t) {
      case 'node':
        expand(task, state)
        break
      case 'wrap':
        state.active.delete(task.node)
        results.push(`${task.open}${results.pop()!}]`)
        break
      case 'union': {
        state.active.delete(task.node)
        const text = union(results.splice(results.length - task.count, task.count))
        results.push(task.open === undefined ? text : `${task.open}${text}]`)
        break
      }
      case 'object': {
        state.active.delete(task.node)
        const parts = results.splice(results.length - task.fields.length - task.index)
        const index = task.index > 0 ? union(parts.slice(task.fields.length)) : undefined
        ctx!.addDeclaration(task.className, classText(task, parts, index))
        results.push(task.className)
        break
      }
      case 'declare': {
        state.active = task.saved
        const body = results.pop()!
        // An object target declared itself as the class; anything else becomes an alias, quoted
        // so that it may name classes declared after it.
        if (body !== task.name)
          ctx!.addDeclaration(task.name, `${task.name}: TypeAlias = ${quotedString(body)}`)
        break
      }
      case 'leave':
        state.active.delete(task.node)
        break
      case 'result':
        results.push(task.text)
        break
    }
  }
  return results[0] ?? 'Any'
}

/**
 * Renders a JSON Schema node as a Python type annotation (`typing` names: `Any`, `Literal`,
 * `Union`, `NotRequired`, `TypedDict`, `TypeAlias`). Never throws: unreadable constructs degrade
 * to `Any`. Without `ctx` every object renders as `dict[str, Any]` (or `dict[str, T]` for an
 * index signature) and local `$ref`s are inlined (cycles cut to `Any`); with a
 * `PyRenderContext` objects become named `TypedDict` classes registered in the context (root
 * named `ctx.baseName`, nested names derived from it, e.g. `ReadArgsItems`), `$ref` targets
 * become classes or `TypeAlias`es named after their definition (recursion through forward
 * references: the SDK starts with `from __future__ import annotations`), and `allOf` of objects
 * merges into one class (other intersections are `Any`). Objects whose field names are not
 * legal Python attributes stay dicts. Bounds and other inexpressible keywords become comments.
 * Deterministic and stack-safe.
 */
export function jsonSchemaToPy(node: unknown, ctx?: PyRenderContext): string {
  try {
    return render(rootPointerRefs(node), ctx)
  } catch {
    return 'Any'
  }
}

import { quotedString, tsDocComment } from './doc-comments'
import { concat, dedupeShort, previewJson } from './internal/codegen-text'
import { type CodegenDoc, type CodegenField, viewOf } from './internal/codegen-view'

/** A rendered type expression; `union` marks text that needs parentheses before `[]`. */
interface Rendered {
  readonly text: string
  readonly union: boolean
}

type Task =
  | { readonly t: 'node'; readonly node: unknown; readonly depth: number }
  | { readonly t: 'array'; readonly node: object }
  | { readonly t: 'union'; readonly node: object; readonly count: number }
  | {
      readonly t: 'object'
      readonly node: object
      readonly fields: readonly CodegenField[]
      readonly depth: number
    }

/** Indentation stops growing past this depth so huge nestings stay linear in size. */
const MAX_INDENT_DEPTH = 32
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/

function indent(depth: number): string {
  return '  '.repeat(Math.min(depth, MAX_INDENT_DEPTH))
}

/** Renders a TS property key: bare identifier or a JSON-quoted string. */
export function tsPropertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : quotedString(name)
}

/** Examples shown per field; more would only lengthen the prompt. */
const MAX_EXAMPLES = 3

/** TSDoc text of a field's annotations: title, description, `@default`, `@example`, `@deprecated`. */
export function tsDocText(doc: CodegenDoc): string {
  const parts: string[] = []
  if (doc.title !== undefined) parts.push(doc.title)
  if (doc.description !== undefined)
    parts.push(doc.title !== undefined ? `\n${doc.description}` : doc.description)
  if (doc.hasDefault) parts.push(`@default ${previewJson(doc.default)}`)
  for (const example of doc.examples.slice(0, MAX_EXAMPLES)) parts.push(`@example ${previewJson(example)}`)
  if (doc.deprecated) parts.push('@deprecated')
  return parts.join('\n')
}

function literal(value: unknown): string {
  return typeof value === 'string' ? quotedString(value) : String(value)
}

function renderObject(fields: readonly CodegenField[], types: Rendered[], depth: number): string {
  const pad = indent(depth + 1)
  let out = '{\n'
  fields.forEach((field, i) => {
    if (field.doc !== undefined) out += tsDocComment(tsDocText(field.doc), pad)
    out += `${pad}${tsPropertyKey(field.name)}${field.required ? '' : '?'}: ${types[i]!.text};\n`
  })
  return `${out}${indent(depth)}}`
}

function expand(
  task: Extract<Task, { t: 'node' }>,
  tasks: Task[],
  results: Rendered[],
  active: Set<object>,
): void {
  const { node, depth } = task
  if (typeof node === 'object' && node !== null && active.has(node)) {
    results.push({ text: 'unknown', union: false })
    return
  }
  const view = viewOf(node)
  switch (view.kind) {
    case 'unknown':
      results.push({ text: 'unknown', union: false })
      return
    case 'any':
      results.push({ text: 'JsonValue', union: false })
      return
    case 'scalar':
      results.push({ text: view.type === 'integer' ? 'number' : view.type, union: false })
      return
    case 'literals': {
      const texts = dedupeShort(view.values.map(literal))
      results.push({ text: texts.join(' | '), union: texts.length > 1 })
      return
    }
    case 'array':
      if (!view.hasItems) {
        results.push({ text: 'JsonValue[]', union: false })
        return
      }
      active.add(node as object)
      tasks.push({ t: 'array', node: node as object }, { t: 'node', node: view.items, depth })
      return
    case 'object':
      if (view.fields.length === 0) {
        results.push({
          text: view.closed ? 'Record<string, never>' : '{ [key: string]: JsonValue }',
          union: false,
        })
        return
      }
      active.add(node as object)
      tasks.push({ t: 'object', node: node as object, fields: view.fields, depth })
      for (let i = view.fields.length - 1; i >= 0; i--) {
        tasks.push({ t: 'node', node: view.fields[i]!.node, depth: depth + 1 })
      }
      return
    case 'union':
      active.add(node as object)
      tasks.push({ t: 'union', node: node as object, count: view.branches.length })
      for (let i = view.branches.length - 1; i >= 0; i--)
        tasks.push({ t: 'node', node: view.branches[i], depth })
      return
  }
}

function render(root: unknown): string {
  const tasks: Task[] = [{ t: 'node', node: root, depth: 0 }]
  const results: Rendered[] = []
  const active = new Set<object>()
  while (tasks.length > 0) {
    const task = tasks.pop()!
    switch (task.t) {
      case 'node':
        expand(task, tasks, results, active)
        break
      case 'array': {
        active.delete(task.node)
        const item = results.pop()!
        results.push({ text: item.union ? `(${item.text})[]` : `${item.text}[]`, union: false })
        break
      }
      case 'union': {
        active.delete(task.node)
        const branches = results.splice(results.length - task.count, task.count)
        const texts = dedupeShort(branches.map((branch) => branch.text))
        results.push({ text: concat(texts, ' | '), union: texts.length > 1 })
        break
      }
      case 'object': {
        active.delete(task.node)
        const types = results.splice(results.length - task.fields.length, task.fields.length)
        results.push({ text: renderObject(task.fields, types, task.depth), union: false })
        break
      }
    }
  }
  return results[0]?.text ?? 'unknown'
}

/**
 * Renders a JSON Schema node as a TypeScript type expression (plain, `readonly`-free).
 * Never throws: unsupported raw constructs degrade to `unknown`, annotation-only nodes render
 * as `JsonValue` (the consumer declares that type), objects render as multi-line object types
 * with quoted exotic keys and `/** … *​/` field descriptions. Deterministic and stack-safe.
 */
export function jsonSchemaToTs(node: unknown): string {
  try {
    return render(node)
  } catch {
    return 'unknown'
  }
}

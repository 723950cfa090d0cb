import { quotedString, tsDocComment } from './doc-comments'
import { resolveRef } from './internal/codegen-refs'
import { concat, dedupeShort, jsonLiteral, previewJson } from './internal/codegen-text'
import {
  type CodegenDoc,
  type CodegenField,
  readDoc,
  refSiblingsApply,
  viewOf,
} from './internal/codegen-view'
import { rootPointerRefs } from './internal/root-pointer-refs'
import type { TsRenderContext } from './ts-render-context'

/** Binding strength of a rendered type: unions need parentheses inside `&`, `[]` and `?`. */
const ATOM = 0
const INTERSECTION = 1
const UNION = 2

/** A rendered type expression. */
interface Rendered {
  readonly text: string
  readonly prec: number
  readonly multiline: boolean
}

type Task =
  | { readonly t: 'node'; readonly node: unknown; readonly depth: number }
  | { readonly t: 'array'; readonly node: object }
  | { readonly t: 'join'; readonly node: object; readonly count: number; readonly op: ' | ' | ' & ' }
  | {
      readonly t: 'tuple'
      readonly node: object
      readonly count: number
      readonly required: number
      readonly rest: boolean
    }
  | {
      readonly t: 'object'
      readonly node: object
      readonly fields: readonly CodegenField[]
      readonly index: number
      readonly depth: number
    }
  | { readonly t: 'declare'; readonly name: string; readonly target: unknown; readonly saved: Set<object> }
  | { readonly t: 'leave'; readonly node: object }
  | { readonly t: 'result'; readonly text: string }

/** Indentation stops growing past this depth so huge nestings stay linear in size. */
const MAX_INDENT_DEPTH = 32
/** Objects without documented fields render on one line up to this many characters. */
const INLINE_LIMIT = 100
/** Reference expansions per render without a context (a shared-reference bomb stays linear). */
const INLINE_REF_BUDGET = 1_000
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

/**
 * TSDoc text of a node's annotations: title, description, then one tag per fact
 * (`@minimum 1`, `@format email`, `@readOnly`, `@not {…}`), `@default`, `@example`, `@deprecated`.
 */
export function tsDocText(doc: CodegenDoc): string {
  const parts: string[] = []
  if (doc.title !== undefined) parts.push(doc.title)
  if (doc.description !== undefined)
    parts.push(doc.title !== undefined ? `\n${doc.description}` : doc.description)
  for (const [label, value] of doc.facts) parts.push(value.length > 0 ? `@${label} ${value}` : `@${label}`)
  if (doc.hasDefault) parts.push(`@default ${previewJson(doc.default)}`)
  for (const example of doc.examples.slice(0, MAX_EXAMPLES)) parts.push(`@example ${previewJson(example)}`)
  if (doc.deprecated) parts.push('@deprecated')
  return parts.join('\n')
}

const atom = (text: string): Rendered => ({ text, prec: ATOM, multiline: false })

function wrap(item: Rendered, above: number): string {
  return item.prec > above ? `(${item.text})` : item.text
}

function renderObject(fields: readonly CodegenField[], types: Rendered[], depth: number): Rendered {
  const inline =
    fields.every((field, i) => field.doc === undefined && !types[i]!.multiline) &&
    fields.reduce((sum, field, i) => sum + field.name.length + types[i]!.text.length + 4, 4) <= INLINE_LIMIT
  if (inline) {
    const members = fields.map(
      (field, i) => `${tsPropertyKey(field.name)}${field.required ? '' : '?'}: ${types[i]!.text}`,
    )
    return atom(`{ ${members.join('; ')} }`)
  }
  const pad = indent(depth + 1)
  let out = '{\n'
  fields.forEach((field, i) => {
    if (field.doc !== undefined) out += tsDocComment(tsDocText(field.doc), pad)
    out += `${pad}${tsPropertyKey(field.name)}${field.required ? '' : '?'}: ${types[i]!.text};\n`
  })
  return { text: `${out}${indent(depth)}}`, prec: ATOM, multiline: true }
}

function finishObject(task: Extract<Task, { t: 'object' }>, results: Rendered[]): Rendered {
  const parts = results.splice(results.length - task.fields.length - task.index)
  const values = dedupeShort(parts.slice(task.fields.length).map((part) => part.text))
  const signature =
    values.length === 0
      ? undefined
      : atom(`{ [key: string]: ${values.includes('JsonValue') ? 'JsonValue' : concat(values, ' | ')} }`)
  if (task.fields.length === 0) return signature ?? atom('Record<string, never>')
  const object = renderObject(task.fields, parts, task.depth)
  // An intersection, not one literal: a signature must accept every declared property's type.
  if (signature === undefined) return object
  return { text: `${object.text} & ${signature.text}`, prec: INTERSECTION, multiline: object.multiline }
}

interface State {
  readonly tasks: Task[]
  readonly results: Rendered[]
  /** Nodes being rendered (cycle guard); each named declaration renders with its own. */
  active: Set<object>
  readonly root: unknown
  /** Whether keywords beside `$ref` apply in this document (see `viewOf`). */
  readonly refSiblings: boolean
  readonly ctx: TsRenderContext | undefined
  inlineRefs: number
}

function expandRef(node: object, ref: string, depth: number, state: State): void {
  const { tasks, results, ctx } = state
  const resolved = resolveRef(state.root, ref, ctx?.rootName ?? 'Root')
  if (resolved === undefined) {
    results.push(atom('JsonValue'))
    return
  }
  if (ctx === undefined) {
    // No SDK to declare a name in: inline the target, cutting cycles and reference bombs.
    if (state.active.has(node) || ++state.inlineRefs > INLINE_REF_BUDGET) {
      results.push(atom('unknown'))
      return
    }
    state.active.add(node)
    tasks.push({ t: 'leave', node }, { t: 'node', node: resolved.target, depth })
    return
  }
  const root = state.root as object
  const known = ctx.refs.nameOf(root, resolved)
  if (known !== undefined) {
    results.push(atom(known))
    return
  }
  const name = ctx.reserveName(resolved.stem)
  ctx.refs.assign(root, resolved, name)
  tasks.push(
    { t: 'result', text: name },
    { t: 'declare', name, target: resolved.target, saved: state.active },
  )
  // The target may be in progress (a `#` reference inside the root): its name breaks the cycle.
  state.active = new Set()
  tasks.push({ t: 'node', node: resolved.target, depth: 0 })
}

function literal(value: unknown): string {
  return typeof value === 'string' ? quotedString(value) : (jsonLiteral(value) ?? 'JsonValue')
}

function expand(task: Extract<Task, { t: 'node' }>, state: State): void {
  const { tasks, results, active } = state
  const { node, depth } = task
  if (typeof node === 'object' && node !== null && active.has(node)) {
    results.push(atom('unknown'))
    return
  }
  const view = viewOf(node, state.refSiblings)
  const self = node as object
  switch (view.kind) {
    case 'unknown':
      results.push(atom('unknown'))
      return
    case 'any':
      results.push(atom('JsonValue'))
      return
    case 'never':
      results.push(atom('never'))
      return
    case 'scalar':
      results.push(atom(view.type === 'integer' ? 'number' : view.type))
      return
    case 'ref':
      expandRef(self, view.ref, depth, state)
      return
    case 'literals': {
      const texts = dedupeShort(view.values.map(literal))
      const text = texts.includes('JsonValue') ? 'JsonValue' : texts.join(' | ')
      results.push({ text, prec: texts.length > 1 ? UNION : ATOM, multiline: false })
      return
    }
    case 'array':
      if (!view.hasItems) {
        results.push(atom('JsonValue[]'))
        return
      }
      active.add(self)
      tasks.push({ t: 'array', node: self }, { t: 'node', node: view.items, depth })
      return
    case 'tuple': {
      active.add(self)
      const rest = view.rest === false ? [] : [view.rest]
      const items = [...view.prefix, ...rest]
      tasks.push({
        t: 'tuple',
        node: self,
        count: view.prefix.length,
        required: view.required,
        rest: rest.length > 0,
      })
      for (let i = items.length - 1; i >= 0; i--) tasks.push({ t: 'node', node: items[i], depth })
      return
    }
    case 'object': {
      if (view.fields.length === 0 && view.index.length === 0) {
        results.push(atom(view.closed ? 'Record<string, never>' : '{ [key: string]: JsonValue }'))
        return
      }
      active.add(self)
      tasks.push({ t: 'object', node: self, fields: view.fields, index: view.index.length, depth })
      for (let i = view.index.length - 1; i >= 0; i--) tasks.push({ t: 'node', node: view.index[i], depth })
      for (let i = view.fields.length - 1; i >= 0; i--) {
        tasks.push({ t: 'node', node: view.fields[i]!.node, depth: depth + 1 })
      }
      return
    }
    case 'union':
    case 'intersection': {
      active.add(self)
      const op = view.kind === 'union' ? ' | ' : ' & '
      tasks.push({ t: 'join', node: self, count: view.branches.length, op })
      for (let i = view.branches.length - 1; i >= 0; i--)
        tasks.push({ t: 'node', node: view.branches[i], depth })
      return
    }
  }
}

const IDENTITIES = new Set(['JsonValue', 'unknown', '{ [key: string]: JsonValue }'])

function join(task: Extract<Task, { t: 'join' }>, results: Rendered[]): Rendered {
  const parts = results.splice(results.length - task.count, task.count)
  const multiline = parts.some((part) => part.multiline)
  if (task.op === ' | ') {
    // A branch that admits any JSON makes the whole union any JSON.
    if (parts.some((part) => part.text === 'JsonValue')) return atom('JsonValue')
    const texts = dedupeShort(parts.map((part) => part.text))
    return { text: concat(texts, ' | '), prec: texts.length > 1 ? UNION : parts[0]!.prec, multiline }
  }
  // `X & unknown`, `X & JsonValue` and `X & (an open object)` say no more than `X` (an
  // `anyOf` of `required` lists reads as open objects).
  const kept = parts.filter((part) => !IDENTITIES.has(part.text))
  if (kept.length === 0) return atom('JsonValue')
  if (kept.length === 1) return kept[0]!
  const texts = dedupeShort(kept.map((part) => wrap(part, INTERSECTION)))
  return { text: concat(texts, ' & '), prec: texts.length > 1 ? INTERSECTION : ATOM, multiline }
}

function tuple(task: Extract<Task, { t: 'tuple' }>, results: Rendered[]): Rendered {
  const parts = results.splice(results.length - task.count - (task.rest ? 1 : 0))
  const texts = parts
    .slice(0, task.count)
    .map((part, i) => (i < task.required ? part.text : `${wrap(part, ATOM)}?`))
  if (task.rest) texts.push(`...${wrap(parts[task.count]!, ATOM)}[]`)
  return { text: `[${texts.join(', ')}]`, prec: ATOM, multiline: parts.some((part) => part.multiline) }
}

function render(root: unknown, ctx: TsRenderContext | undefined): string {
  const refSiblings = refSiblingsApply(root)
  const state: State = {
    tasks: [{ t: 'node', node: root, depth: 0 }],
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
      case 'array': {
        state.active.delete(task.node)
        const item = results.pop()!
        results.push({ text: `${wrap(item, ATOM)}[]`, prec: ATOM, multiline: item.multiline })
        break
      }
      case 'join':
        state.active.delete(task.node)
        results.push(join(task, results))
        break
      case 'tuple':
        state.active.delete(task.node)
        results.push(tuple(task, results))
        break
      case 'object':
        state.active.delete(task.node)
        results.push(finishObject(task, results))
        break
      case 'declare': {
        state.active = task.saved
        const body = results.pop()!
        const doc = readDoc(task.target)
        const comment = doc === undefined ? '' : tsDocComment(tsDocText(doc), '')
        ctx!.addDeclaration(task.name, `${comment}type ${task.name} = ${body.text};\n`)
        break
      }
      case 'leave':
        state.active.delete(task.node)
        break
      case 'result':
        results.push(atom(task.text))
        break
    }
  }
  return results[0]?.text ?? 'unknown'
}

/**
 * Renders a JSON Schema node as a TypeScript type expression (plain, `readonly`-free).
 * Never throws: unreadable constructs degrade to `unknown`, annotation-only nodes render as
 * `JsonValue` (the consumer declares that type). `anyOf`/`oneOf`/type arrays/`nullable` become
 * unions, `allOf` intersections, `const`/`enum` literal unions, `prefixItems` tuples,
 * `additionalProperties`/`patternProperties` schemas index signatures, `false` `never`; bounds,
 * `format`, `default`, `examples`, `deprecated`, `readOnly`/`writeOnly`, `not` and conditionals
 * become `/** … *​/` comments on properties (objects without any render on one line).
 * Local `$ref`s are inlined (cycles cut to `unknown`) unless a `TsRenderContext` is given, in
 * which case each target becomes a named type declared once in the context. Deterministic and
 * stack-safe.
 */
export function jsonSchemaToTs(node: unknown, ctx?: TsRenderContext): string {
  try {
    return render(rootPointerRefs(node), ctx)
  } catch {
    return 'unknown'
  }
}

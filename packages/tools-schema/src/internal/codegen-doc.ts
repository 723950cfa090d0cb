/**
 * The documentation side of code generation: every keyword a type cannot express (bounds,
 * `pattern`, `format`, `default`, `examples`, `deprecated`, `readOnly`/`writeOnly`, `not`,
 * conditionals) becomes a labelled line the model reads next to the type. Values are previewed
 * (bounded, accessor-free); escaping is the doc-comment writers' job.
 */

import { ownStringKeys, readOwn } from './codegen-own'
import { previewJson } from './codegen-text'

/** The annotations of a node that the generators show as documentation. */
export interface CodegenDoc {
  readonly title: string | undefined
  readonly description: string | undefined
  readonly hasDefault: boolean
  readonly default: unknown
  readonly examples: readonly unknown[]
  readonly deprecated: boolean
  /** `[label, preview]` pairs: bounds, `format`, `pattern`, `readOnly`, `not`, …, in keyword order. */
  readonly facts: readonly (readonly [string, string])[]
}

/** Keywords shown with their value, in this order (the standard's order of the vocabularies). */
const VALUE_FACTS = [
  'format',
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'contentMediaType',
  'contentEncoding',
  'minItems',
  'maxItems',
  'contains',
  'minContains',
  'maxContains',
  'minProperties',
  'maxProperties',
  'propertyNames',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  'not',
  'if',
  'then',
  'else',
] as const

/** Boolean flags shown by name when `true`. */
const FLAG_FACTS = ['uniqueItems', 'readOnly', 'writeOnly'] as const

/** Longest preview of one keyword value (a huge `not` schema must not flood the prompt). */
const FACT_LIMIT = 120

function denseItems(value: unknown): unknown[] {
  if (!Array.isArray(value)) return []
  const out: unknown[] = []
  for (let i = 0; i < value.length && i < 16; i++) out.push(readOwn(value, String(i)))
  return out
}

const LOWER_BOUNDS: ReadonlySet<string> = new Set(['minimum', 'exclusiveMinimum'])
const UPPER_BOUNDS: ReadonlySet<string> = new Set(['maximum', 'exclusiveMaximum'])

/** True when the node's `type` admits integers only (`'integer'`, or a list without `'number'`). */
function integerOnly(node: object): boolean {
  const type = readOwn(node, 'type')
  if (type === 'integer') return true
  if (!Array.isArray(type)) return false
  const types = denseItems(type)
  return types.includes('integer') && !types.includes('number')
}

/**
 * True for a numeric bound that only restates the type's natural range: ±`Number.MAX_VALUE`
 * for any number, the safe-integer limits for integers (zod's `.int()` emits those). Such a
 * line says nothing to the model but costs tokens in every prompt, so it is not shown; the
 * validator still enforces the keyword.
 */
function isNaturalBound(node: object, key: string, value: unknown): boolean {
  if (typeof value !== 'number') return false
  const lower = LOWER_BOUNDS.has(key)
  if (!lower && !UPPER_BOUNDS.has(key)) return false
  const edge = lower ? -value : value
  return edge >= Number.MAX_VALUE || (edge >= Number.MAX_SAFE_INTEGER && integerOnly(node))
}

/** Description of a node when it is a non-empty string, else undefined. */
export function readDescription(node: unknown): string | undefined {
  const description = readOwn(node, 'description')
  return typeof description === 'string' && description.length > 0 ? description : undefined
}

/** Every keyword `readDoc` looks at, for a one-pass check of the common undocumented node. */
const DOC_KEYS: ReadonlySet<string> = new Set([
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  ...VALUE_FACTS,
  ...FLAG_FACTS,
])

/** Annotations and inexpressible constraints of a node, or undefined when it has none. */
export function readDoc(node: unknown): CodegenDoc | undefined {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined
  if (!ownStringKeys(node).some((key) => DOC_KEYS.has(key))) return undefined
  const title = readOwn(node, 'title')
  const hasDefault = Object.hasOwn(node, 'default')
  const facts: [string, string][] = []
  for (const key of VALUE_FACTS) {
    if (!Object.hasOwn(node, key)) continue
    const value = readOwn(node, key)
    if (isNaturalBound(node, key, value)) continue
    facts.push([key, typeof value === 'string' ? value : previewJson(value, FACT_LIMIT)])
  }
  for (const key of FLAG_FACTS) if (readOwn(node, key) === true) facts.push([key, ''])
  const doc: CodegenDoc = {
    title: typeof title === 'string' && title.length > 0 ? title : undefined,
    description: readDescription(node),
    hasDefault,
    default: hasDefault ? readOwn(node, 'default') : undefined,
    examples: denseItems(readOwn(node, 'examples')),
    deprecated: readOwn(node, 'deprecated') === true,
    facts,
  }
  const empty =
    doc.title === undefined &&
    doc.description === undefined &&
    !hasDefault &&
    doc.examples.length === 0 &&
    !doc.deprecated &&
    facts.length === 0
  return empty ? undefined : doc
}

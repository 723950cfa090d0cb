/**
 * Local `$ref` resolution and naming for the code generators. A reference target becomes one
 * named type per SDK: the same (document, pointer) always gets the same name, and targets of
 * different documents share a name only when they are byte-identical (canonical JSON of the
 * target and of the definitions it can reach), otherwise the later one is suffixed.
 */
import { denseItems, ownStringKeys, readOwn } from './codegen-own'

/** A resolved reference: the target node and the stem its type name derives from. */
export interface ResolvedRef {
  readonly target: unknown
  readonly pointer: string
  readonly stem: string
}

/** Nodes visited when indexing a document's anchors (a hostile document cannot stall us). */
const ANCHOR_BUDGET = 100_000
/** Longest canonical text used as a deduplication key; beyond it a target is never shared. */
const KEY_BUDGET = 200_000

const anchorIndexes = new WeakMap<object, Map<string, unknown>>()

function anchorsOf(root: object): Map<string, unknown> {
  let index = anchorIndexes.get(root)
  if (index !== undefined) return index
  index = new Map()
  const stack: unknown[] = [root]
  const seen = new Set<object>()
  while (stack.length > 0 && seen.size < ANCHOR_BUDGET) {
    const node = stack.pop()
    if (typeof node !== 'object' || node === null || seen.has(node)) continue
    seen.add(node)
    for (const key of ['$anchor', '$dynamicAnchor']) {
      const anchor = readOwn(node, key)
      if (typeof anchor === 'string' && !index.has(anchor)) index.set(anchor, node)
    }
    for (const key of ownStringKeys(node)) stack.push(readOwn(node, key))
  }
  anchorIndexes.set(root, index)
  return index
}

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text)
  } catch {
    return undefined
  }
}

/** Resolves a local reference (`#`, `#/json/pointer`, `#anchor`) in `root`; undefined if it is not one. */
export function resolveRef(root: unknown, ref: string, rootStem: string): ResolvedRef | undefined {
  if (!ref.startsWith('#') || typeof root !== 'object' || root === null) return undefined
  const fragment = decode(ref.slice(1))
  if (fragment === undefined) return undefined
  if (fragment === '') return { target: root, pointer: '', stem: rootStem }
  if (!fragment.startsWith('/')) {
    const target = anchorsOf(root).get(fragment)
    return target === undefined ? undefined : { target, pointer: `#${fragment}`, stem: fragment }
  }
  let target: unknown = root
  const segments = fragment.slice(1).split('/')
  for (const raw of segments) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (typeof target !== 'object' || target === null || !Object.hasOwn(target, segment)) return undefined
    target = readOwn(target, segment)
  }
  return target === undefined ? undefined : { target, pointer: fragment, stem: segments.at(-1) ?? rootStem }
}

/** A piece of literal text waiting on the canonicalisation stack. */
class Text {
  constructor(readonly text: string) {}
}

/**
 * Canonical JSON (keys sorted, accessors read as null) of `value`, or undefined past
 * `KEY_BUDGET` characters or on a cycle-sized input. Iterative.
 */
export function canonicalJson(value: unknown): string | undefined {
  let out = ''
  const stack: unknown[] = [value]
  let steps = 0
  while (stack.length > 0) {
    if (out.length > KEY_BUDGET || ++steps > KEY_BUDGET) return undefined
    const item = stack.pop()
    if (item instanceof Text) out += item.text
    else if (Array.isArray(item)) {
      const items = denseItems(item) ?? []
      out += '['
      stack.push(new Text(']'))
      for (let i = items.length - 1; i >= 0; i--) stack.push(items[i], new Text(i > 0 ? ',' : ''))
    } else if (typeof item === 'object' && item !== null) {
      const keys = ownStringKeys(item).sort()
      out += '{'
      stack.push(new Text('}'))
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push(readOwn(item, keys[i]!), new Text(`${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:`))
      }
    } else if (typeof item === 'string' || typeof item === 'boolean') out += JSON.stringify(item)
    else out += typeof item === 'number' && Number.isFinite(item) ? String(item) : 'null'
  }
  return out
}

/** Containers whose members a target can reach by reference without depending on the rest. */
const DEFINITION_CONTAINERS = ['$defs', 'definitions', 'components']

/**
 * Names of reference targets for one SDK. `nameOf` returns the known name of a target or
 * undefined; `assign` records a fresh one. Shared by the TypeScript and Python contexts.
 */
export class RefNames {
  private readonly byDocument = new WeakMap<object, Map<string, string>>()
  private readonly byKey = new Map<string, string>()
  /** Canonical text of each document's definitions (or of the whole document), computed once. */
  private readonly contexts = new WeakMap<object, Map<boolean, string | undefined>>()

  /** The name already given to this (document, pointer), or to a byte-identical target. */
  nameOf(root: object, resolved: ResolvedRef): string | undefined {
    const own = this.byDocument.get(root)?.get(resolved.pointer)
    if (own !== undefined) return own
    const key = this.keyOf(root, resolved)
    const shared = key === undefined ? undefined : this.byKey.get(key)
    if (shared !== undefined) this.remember(root, resolved.pointer, shared)
    return shared
  }

  /** Records `name` for this (document, pointer) and for its canonical key. */
  assign(root: object, resolved: ResolvedRef, name: string): void {
    this.remember(root, resolved.pointer, name)
    const key = this.keyOf(root, resolved)
    if (key !== undefined && !this.byKey.has(key)) this.byKey.set(key, name)
  }

  private remember(root: object, pointer: string, name: string): void {
    let names = this.byDocument.get(root)
    if (names === undefined) {
      names = new Map()
      this.byDocument.set(root, names)
    }
    names.set(pointer, name)
  }

  private keyOf(root: object, resolved: ResolvedRef): string | undefined {
    const inDefinitions = DEFINITION_CONTAINERS.some((key) => resolved.pointer.startsWith(`/${key}/`))
    // A target outside the definition containers may lean on anything in its document.
    let contexts = this.contexts.get(root)
    if (contexts === undefined) {
      contexts = new Map()
      this.contexts.set(root, contexts)
    }
    if (!contexts.has(inDefinitions)) {
      const text = inDefinitions
        ? canonicalJson(DEFINITION_CONTAINERS.map((key) => readOwn(root, key) ?? null))
        : canonicalJson(root)
      contexts.set(inDefinitions, text)
    }
    const context = contexts.get(inDefinitions)
    const target = canonicalJson(resolved.target)
    return context === undefined || target === undefined
      ? undefined
      : `${resolved.pointer}\u0000${target}\u0000${context}`
  }
}

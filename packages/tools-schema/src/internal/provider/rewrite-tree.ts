import { SchemaDefinitionError } from '../../errors'
import { setOwn } from '../describe'
import { joinPath } from '../path'

/** One recorded difference between the input schema and the provider's schema. */
export interface Change {
  readonly path: string
  readonly change: string
}

/** A `$ref` chain from the root to a node: how many times each reference was followed. */
export interface RefChain {
  readonly ref: string
  readonly parent: RefChain | undefined
}

/** How many times `ref` occurs in `chain`. */
export function refCount(chain: RefChain | undefined, ref: string): number {
  let count = 0
  for (let cursor = chain; cursor !== undefined; cursor = cursor.parent) if (cursor.ref === ref) count++
  return count
}

/** One pending node: the input schema, where it is, and where its converted form goes. */
export interface RewriteJob {
  readonly node: unknown
  readonly path: string
  /** Object nesting depth in the output (the root object is 1). */
  readonly depth: number
  readonly refs: RefChain | undefined
  put(value: unknown): void
}

/** What a converter gets besides the job: a way to schedule children and to record changes. */
export interface RewriteContext {
  readonly root: unknown
  child(node: unknown, path: string, put: (value: unknown) => void, options?: ChildOptions): void
  change(path: string, change: string): void
  /** Convert `node` in place of the current node (an inlined `$ref`); return what this gives back. */
  replace(node: unknown, options?: ChildOptions): typeof REPLACED
}

/** What `convert` returns when it handed its node's slot to a replacement. */
export const REPLACED: unique symbol = Symbol('replaced')

/** Overrides for a scheduled child (default: same depth and reference chain as the parent). */
export interface ChildOptions {
  readonly depth?: number
  readonly refs?: RefChain | undefined
}

/** The most output nodes one conversion may produce; inlining references can multiply a schema. */
export const MAX_OUTPUT_NODES = 200_000

/**
 * Rewrite a schema tree with an explicit work stack, so nesting depth never reaches the call
 * stack. `convert` builds one output node and schedules its children; their results are put
 * into the node later. Throws `SchemaDefinitionError` past {@link MAX_OUTPUT_NODES}.
 */
export function rewriteTree(
  root: unknown,
  convert: (job: RewriteJob, context: RewriteContext) => unknown,
): { schema: unknown; changes: Change[] } {
  const changes: Change[] = []
  let result: unknown
  const stack: RewriteJob[] = []
  let current: RewriteJob = { node: root, path: '$', depth: 0, refs: undefined, put: (v) => (result = v) }
  const context: RewriteContext = {
    root,
    child(node, path, put, options) {
      stack.push({
        node,
        path,
        put,
        depth: options?.depth ?? current.depth,
        refs: options && 'refs' in options ? options.refs : current.refs,
      })
    },
    change(path, change) {
      changes.push({ path, change })
    },
    replace(node, options) {
      context.child(node, current.path, current.put, options)
      return REPLACED
    },
  }
  stack.push(current)
  let produced = 0
  while (stack.length > 0) {
    current = stack.pop()!
    if (++produced > MAX_OUTPUT_NODES) {
      throw new SchemaDefinitionError(
        current.path,
        `the converted schema would exceed ${MAX_OUTPUT_NODES} nodes (shared or recursive references inline too often)`,
      )
    }
    const value = convert(current, context)
    if (value !== REPLACED) current.put(value)
  }
  return { schema: result, changes }
}

/** Schedule every member of a map keyword (`properties`, `$defs`) into `into` (a fresh object by default). */
export function childMap(
  context: RewriteContext,
  map: unknown,
  path: string,
  wrap?: (key: string, value: unknown) => unknown,
  into: Record<string, unknown> = {},
): Record<string, unknown> {
  if (typeof map !== 'object' || map === null || Array.isArray(map)) return into
  for (const [key, value] of Object.entries(map)) {
    setOwn(into, key, null)
    context.child(value, joinPath(path, key), (converted) => {
      setOwn(into, key, wrap === undefined ? converted : wrap(key, converted))
    })
  }
  return into
}

/**
 * Schedule every member of an array keyword (`anyOf`, `prefixItems`), appending the results
 * to `into` (a fresh array by default) at fixed slots.
 */
export function childList(
  context: RewriteContext,
  list: readonly unknown[],
  path: string,
  into: unknown[] = [],
): unknown[] {
  const offset = into.length
  for (let index = 0; index < list.length; index++) into.push(null)
  list.forEach((value, index) => {
    context.child(value, joinPath(path, index), (converted) => {
      into[offset + index] = converted
    })
  })
  return into
}

/** Longest text a folded keyword value contributes to a description. */
const MAX_FOLDED_VALUE = 200

/** `keyword: value` as a description fragment, capped so a huge value cannot flood the prompt. */
export function foldText(keyword: string, value: unknown): string {
  let text = JSON.stringify(value) ?? String(value)
  if (text.length > MAX_FOLDED_VALUE) text = `${text.slice(0, MAX_FOLDED_VALUE)}…`
  return `${keyword}: ${text}`
}

/** Append folded constraints to a description: `text (a: 1; b: 2)`. */
export function withFolded(description: unknown, folded: readonly string[]): string | undefined {
  const base = typeof description === 'string' ? description : undefined
  if (folded.length === 0) return base
  const note = `(${folded.join('; ')})`
  return base === undefined || base.length === 0 ? note : `${base} ${note}`
}

/** The description an opaque (JSON-encoded) node shows the model. */
export function opaqueDescription(description: unknown, what: string): string {
  const note = `${what}, sent as a JSON-encoded string`
  return typeof description === 'string' && description.length > 0 ? `${description} (${note})` : note
}

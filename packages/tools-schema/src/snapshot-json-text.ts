/**
 * A snapshot straight from JSON text. The tree `JSON.parse` builds here is referenced by nothing
 * else, and text cannot express what `snapshotJson` has to rule out in a live value (shared
 * references, cycles, accessors, symbol keys, class instances, holes). So instead of a checked
 * copy, one counting pass reads the tree in place: it applies the budgets exactly as
 * `snapshotJsonMeasured` counts them, refuses the two lossy numbers text can still produce
 * (`-0`, and an out-of-range literal such as `1e400`, which parses to `Infinity`), and freezes
 * each container. The root is recorded, so a later `snapshotJson` of it is free.
 */
import { JsonBudgetError, LosslessJsonError } from './errors'
import { scalarProblem } from './internal/json-members'
import { formatSegment } from './internal/path'
import { readBudget } from './internal/snapshot-budget'
import { stampSnapshot } from './internal/snapshot-stamp'
import type { JsonSnapshot, SnapshotJsonOptions } from './snapshot-json'
import type { JsonValue } from './types'

/** Options of {@link snapshotJsonText}: the budgets of `snapshotJson` (text has no `undefined`). */
export type SnapshotJsonTextOptions = Pick<SnapshotJsonOptions, 'maxNodes' | 'maxStringLength' | 'maxDepth'>

/** An open container of the walk; `index` is the next member to read. */
interface Level {
  readonly container: object
  /** The object's keys; `undefined` for an array. */
  readonly keys: string[] | undefined
  readonly length: number
  index: number
}

/** The path of the member being read: each open level's last-read key (`$` at the root). */
function pathOf(levels: readonly Level[]): string {
  let path = '$'
  for (const level of levels) {
    const at = level.index - 1
    path += formatSegment(level.keys === undefined ? at : level.keys[at]!)
  }
  return path
}

/**
 * Parse `text` into a deep-frozen lossless snapshot with its size, counted against the
 * budgets as {@link snapshotJsonMeasured} counts them (the same totals, and a refusal at the
 * same path, as a snapshot of the parsed value). Costs a parse and one pass without copying.
 * Deeply nested text is read without recursion.
 *
 * @param text — JSON text (one value).
 * @param options — the `maxNodes` / `maxStringLength` budgets (past one: `JsonBudgetError`
 *   naming it and the path where counting stopped; not an integer in range: `RangeError`).
 * @throws LosslessJsonError at `$` when `text` is not JSON, or at the member holding `-0` or a
 *   number literal out of range.
 */
export function snapshotJsonText(text: string, options: SnapshotJsonTextOptions = {}): JsonSnapshot {
  const maxNodes = readBudget(options.maxNodes, 'maxNodes', 1, 'snapshotJsonText')
  const maxStringLength = readBudget(options.maxStringLength, 'maxStringLength', 0, 'snapshotJsonText')
  const maxDepth = readBudget(options.maxDepth, 'maxDepth', 0, 'snapshotJsonText')
  let root: unknown
  try {
    root = JSON.parse(text)
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error)
    throw new LosslessJsonError('$', `not JSON text (${detail})`, { cause: error })
  }
  const levels: Level[] = []
  let nodes = 0
  let stringLength = 0
  let depth = 0
  const over = (): never => {
    throw depth > maxDepth
      ? new JsonBudgetError(pathOf(levels), 'maxDepth', maxDepth)
      : nodes > maxNodes
        ? new JsonBudgetError(pathOf(levels), 'maxNodes', maxNodes)
        : new JsonBudgetError(pathOf(levels), 'maxStringLength', maxStringLength)
  }

  /** Freeze a container as it is opened — all but the root, which is stamped first. */
  const freezeMember = <T extends object>(value: T): T => (value === root ? value : Object.freeze(value))

  /** Count one value; a container is counted with its members' slots and opened. */
  const visit = (value: unknown): void => {
    if (typeof value !== 'object' || value === null) {
      if (typeof value === 'number') {
        const problem = scalarProblem(value)
        if (problem !== undefined) throw new LosslessJsonError(pathOf(levels), problem)
      } else if (typeof value === 'string') stringLength += value.length
      if (++nodes > maxNodes || stringLength > maxStringLength) over()
      return
    }
    // Every member is at least one value: refuse an oversized container before reading it.
    nodes += 1
    if (levels.length >= depth) {
      depth = levels.length + 1
      if (depth > maxDepth) over()
    }
    if (Array.isArray(value)) {
      if (nodes + value.length > maxNodes) {
        nodes += value.length
        over()
      }
      levels.push({ container: freezeMember(value), keys: undefined, length: value.length, index: 0 })
      return
    }
    const keys = Object.keys(value)
    for (const key of keys) stringLength += key.length
    if (nodes + keys.length > maxNodes) nodes += keys.length
    if (nodes > maxNodes || stringLength > maxStringLength) over()
    levels.push({ container: freezeMember(value), keys, length: keys.length, index: 0 })
  }

  visit(root)
  while (levels.length > 0) {
    const level = levels[levels.length - 1]!
    if (level.index >= level.length) {
      levels.pop()
      continue
    }
    const at = level.index++
    const keys = level.keys
    // An own `__proto__` key from JSON text is a data property, so reading it is a plain read.
    visit(
      keys === undefined
        ? (level.container as readonly unknown[])[at]
        : (level.container as Readonly<Record<string, unknown>>)[keys[at]!],
    )
  }
  if (typeof root === 'object' && root !== null) {
    // The root is stamped before it is frozen (see `snapshot-stamp`); every member already is.
    stampSnapshot(root, { nodes, stringLength, depth })
    Object.freeze(root)
  }
  return { value: root as JsonValue, nodes, stringLength, depth }
}

import type { JsonSchemaNode } from '../types'
import {
  Checker,
  KIND_ANY,
  KIND_ARRAY,
  KIND_BOOLEAN,
  KIND_INTEGER,
  KIND_NULL,
  KIND_NUMBER,
  KIND_OBJECT,
  KIND_ONE_OF,
  KIND_SCALAR_ENUM,
  KIND_STRING,
  setConst,
  setEnum,
} from './checker'

const KIND_BY_TYPE: Record<string, number> = {
  string: KIND_STRING,
  number: KIND_NUMBER,
  integer: KIND_INTEGER,
  boolean: KIND_BOOLEAN,
  null: KIND_NULL,
  array: KIND_ARRAY,
  object: KIND_OBJECT,
}

/**
 * Builds the checker graph for a supported `JsonSchemaNode` (already asserted), iteratively.
 * Shared sub-nodes get one shared checker.
 */
export function buildChecker(root: JsonSchemaNode): Checker {
  const memo = new Map<JsonSchemaNode, Checker>()
  const pending: JsonSchemaNode[] = []
  const checkerFor = (node: JsonSchemaNode): Checker => {
    let checker = memo.get(node)
    if (checker === undefined) {
      checker = new Checker()
      memo.set(node, checker)
      pending.push(node)
    }
    return checker
  }
  const rootChecker = checkerFor(root)
  while (pending.length > 0) {
    const node = pending.pop()!
    const checker = memo.get(node)!
    fill(checker, node, checkerFor)
  }
  measure(memo.values())
  return rootChecker
}

/** Size cap for `Checker.size` (anything larger is never code-generated anyway). */
const SIZE_CAP = 100_000

function childrenOf(checker: Checker): Checker[] {
  const children = [...checker.props, ...checker.branches]
  if (checker.items !== undefined) children.push(checker.items)
  return children
}

/** Computes height and (capped) size of every checker with an explicit post-order walk. */
function measure(checkers: Iterable<Checker>): void {
  const done = new Set<Checker>()
  for (const start of checkers) {
    if (done.has(start)) continue
    const stack: { checker: Checker; expanded: boolean }[] = [{ checker: start, expanded: false }]
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!
      if (done.has(frame.checker)) {
        stack.pop()
        continue
      }
      const children = childrenOf(frame.checker)
      if (!frame.expanded) {
        frame.expanded = true
        for (const child of children) if (!done.has(child)) stack.push({ checker: child, expanded: false })
        continue
      }
      stack.pop()
      let height = 0
      let size = 1
      for (const child of children) {
        height = Math.max(height, child.height)
        size = Math.min(SIZE_CAP, size + child.size)
      }
      frame.checker.height = height + 1
      frame.checker.size = size
      done.add(frame.checker)
    }
  }
}

function fill(checker: Checker, node: JsonSchemaNode, checkerFor: (node: JsonSchemaNode) => Checker): void {
  if (node.oneOf !== undefined) {
    checker.kind = KIND_ONE_OF
    checker.inline = false
    checker.branches = node.oneOf.map(checkerFor)
    return
  }
  if (node.type !== undefined) {
    checker.kind = KIND_BY_TYPE[node.type] ?? KIND_ANY
    checker.typeName = node.type
  } else if (node.enum !== undefined || 'const' in node) {
    checker.kind = KIND_SCALAR_ENUM
  }
  // An any-JSON node descends: it must look at every member to refuse what is not JSON.
  if (checker.kind === KIND_ANY) checker.inline = false
  if (node.enum !== undefined) setEnum(checker, node.enum)
  if ('const' in node) setConst(checker, node.const)
  if (checker.kind === KIND_ARRAY) {
    checker.inline = false
    if (node.items !== undefined) checker.items = checkerFor(node.items)
  } else if (checker.kind === KIND_OBJECT) {
    checker.inline = false
    checker.closed = node.additionalProperties === false
    const properties = node.properties ?? {}
    const required = new Set(node.required ?? [])
    const propMap = new Map<string, Checker>()
    for (const key of Object.keys(properties)) {
      const child = checkerFor(properties[key]!)
      checker.keys.push(key)
      checker.props.push(child)
      checker.required.push(required.has(key))
      checker.shadowed.push(key in Object.prototype)
      propMap.set(key, child)
    }
    checker.propMap = propMap
  }
}

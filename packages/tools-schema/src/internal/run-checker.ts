import type { SchemaViolation } from '../types'
import { type Checker, KIND_ANY, KIND_ARRAY, KIND_OBJECT, KIND_ONE_OF, type Sink } from './checker'
import { compileFastCheck } from './jit-checker'
import type { PathNode } from './path'
import {
  checkExtraMember,
  checkJson,
  containerMessage,
  inlineMessage,
  isJsonObject,
  oneOfMessage,
  report,
  trialSink,
} from './sink'

/** Continuation of a oneOf evaluation, resumed after each branch's subtree. */
interface OneOfState {
  readonly checker: Checker
  readonly value: unknown
  readonly path: PathNode | undefined
  readonly sink: Sink
  readonly trials: Sink[]
}

const ONE_OF_RESUME = Symbol('oneOf-resume')
const hasOwn = Object.prototype.hasOwnProperty

/**
 * Validates `value` against a checker graph with an explicit work stack (no recursion).
 * Returns every violation found, in a stable order.
 */
export function runChecker(root: Checker, value: unknown): SchemaViolation[] {
  const violations: SchemaViolation[] = []
  const rootSink: Sink = { violations, count: 0, first: undefined }
  let rootFast = root.fast
  if (rootFast === undefined && !root.inline) rootFast = root.fast = compileFastCheck(root)
  if (rootFast) {
    rootFast(value, undefined, rootSink)
    return violations
  }
  if (root.inline) {
    const message = inlineMessage(root, value)
    if (message !== undefined) report(rootSink, undefined, message)
    return violations
  }
  const checkers: (Checker | typeof ONE_OF_RESUME)[] = [root]
  const values: unknown[] = [value]
  const paths: (PathNode | undefined)[] = [undefined]
  const sinks: Sink[] = [rootSink]
  while (checkers.length > 0) {
    const checker = checkers.pop()!
    const current = values.pop()
    const path = paths.pop()
    const sink = sinks.pop()!
    if (checker === ONE_OF_RESUME) {
      resumeOneOf(current as OneOfState, checkers, values, paths, sinks)
      continue
    }
    // A failed oneOf branch trial needs no further evidence.
    if (sink.violations === undefined && sink.count > 0) continue
    let fast = checker.fast
    if (fast === undefined) fast = checker.fast = compileFastCheck(checker)
    if (fast !== null) {
      fast(current, path, sink)
      continue
    }
    switch (checker.kind) {
      case KIND_OBJECT: {
        if (!isJsonObject(current)) {
          report(sink, path, containerMessage('object', current))
          break
        }
        const object = current as Record<string, unknown>
        const { keys, props, required, shadowed } = checker
        const pushedFrom = checkers.length
        for (let i = 0; i < keys.length; i++) {
          const key = keys[i]!
          const member = object[key]
          if ((member === undefined || shadowed[i]) && !hasOwn.call(object, key)) {
            if (required[i]) report(sink, path, `missing required property ${JSON.stringify(key)}`)
            continue
          }
          const child = props[i]!
          if (child.inline) {
            const message = inlineMessage(child, member)
            if (message !== undefined) report(sink, { parent: path, key }, message)
          } else {
            checkers.push(child)
            values.push(member)
            paths.push({ parent: path, key })
            sinks.push(sink)
          }
        }
        reverseTail(checkers, values, paths, sinks, pushedFrom)
        const map = checker.propMap!
        for (const key in object) {
          if (map.has(key) || !hasOwn.call(object, key)) continue
          // Closed: an undeclared key is a violation. Open: its member must still be JSON.
          if (checker.closed)
            report(sink, { parent: path, key }, `unexpected property ${JSON.stringify(key)}`)
          else checkExtraMember(sink, path, [key], object, key)
        }
        break
      }
      case KIND_ARRAY: {
        if (!Array.isArray(current)) {
          report(sink, path, containerMessage('array', current))
          break
        }
        const items = checker.items
        if (items === undefined) {
          checkJson(sink, path, [], current)
          break
        }
        if (items.inline) {
          for (let i = 0; i < current.length; i++) {
            const message = inlineMessage(items, current[i])
            if (message !== undefined) report(sink, { parent: path, key: i }, message)
          }
        } else {
          for (let i = current.length - 1; i >= 0; i--) {
            checkers.push(items)
            values.push(current[i])
            paths.push({ parent: path, key: i })
            sinks.push(sink)
          }
        }
        break
      }
      case KIND_ANY:
        checkJson(sink, path, [], current)
        break
      case KIND_ONE_OF: {
        const state: OneOfState = { checker, value: current, path, sink, trials: [] }
        scheduleBranch(state, checkers, values, paths, sinks)
        break
      }
      default: {
        const message = inlineMessage(checker, current)
        if (message !== undefined) report(sink, path, message)
      }
    }
  }
  return violations
}

/** Reverses the frames pushed since `from` so they pop in declaration order. */
function reverseTail(
  checkers: unknown[],
  values: unknown[],
  paths: unknown[],
  sinks: unknown[],
  from: number,
): void {
  for (let i = from, j = checkers.length - 1; i < j; i++, j--) {
    swap(checkers, i, j)
    swap(values, i, j)
    swap(paths, i, j)
    swap(sinks, i, j)
  }
}

function swap(array: unknown[], i: number, j: number): void {
  const tmp = array[i]
  array[i] = array[j]
  array[j] = tmp
}

function scheduleBranch(
  state: OneOfState,
  checkers: (Checker | typeof ONE_OF_RESUME)[],
  values: unknown[],
  paths: (PathNode | undefined)[],
  sinks: Sink[],
): void {
  const trial = trialSink()
  const branch = state.checker.branches[state.trials.length]!
  state.trials.push(trial)
  checkers.push(ONE_OF_RESUME, branch)
  values.push(state, state.value)
  paths.push(undefined, state.path)
  sinks.push(state.sink, trial)
}

function resumeOneOf(
  state: OneOfState,
  checkers: (Checker | typeof ONE_OF_RESUME)[],
  values: unknown[],
  paths: (PathNode | undefined)[],
  sinks: Sink[],
): void {
  if (state.trials.length < state.checker.branches.length) {
    scheduleBranch(state, checkers, values, paths, sinks)
    return
  }
  const message = oneOfMessage(state.trials)
  if (message !== undefined) report(state.sink, state.path, message)
}

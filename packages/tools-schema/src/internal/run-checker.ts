import type { SchemaViolation } from '../types'
import { countNoun } from './count-noun'
import { describeType } from './describe'
import { describeObjectKind, findJsonProblem, isPlainJsonObject } from './json-check'
import { findDuplicate } from './json-equal'
import {
  constMessage,
  enumMessage,
  numberMessage,
  stringMessage,
  typeBitsOf,
  typeMessage,
} from './keyword-messages'
import type { PathNode } from './path'
import type { SchemaNode } from './schema-node'
import { checkJson, oneOfMessage, report, reportAt, type Sink, trialSink } from './sink'
import { chooseByTag } from './tagged-union'

/** A unit of work: apply `node` to `value`, or resume a combinator once its trials are done. */
type Frame =
  | {
      readonly node: SchemaNode
      readonly value: unknown
      readonly path: PathNode | undefined
      readonly sink: Sink
    }
  | { readonly resume: (stack: Frame[]) => void }

const hasOwn = Object.prototype.hasOwnProperty

/**
 * The violation a run ends with when it reaches its step budget (checker-budget: linear in the
 * value). Unlike the generated check, the interpreter has no memo (its trials carry paths and
 * messages), so a schema that applies subschemas to the same value along many paths could
 * otherwise cost 2^depth.
 */
export const CHECK_BUDGET_MESSAGE =
  'validation stopped: this schema applies too many subschemas to this value (the violations before this one are real; others may be missing)'

/**
 * Most violations one run lists. A value can break a rule once per member (300,000 unexpected
 * properties): listing them all costs far more than deciding, and no reader needs them all.
 * Past it the run ends with {@link MORE_VIOLATIONS_MESSAGE} at `$`.
 */
export const MAX_VIOLATIONS = 100

/** The violation a run ends with when it has listed {@link MAX_VIOLATIONS}. */
export const MORE_VIOLATIONS_MESSAGE = `more violations not listed (stopped after ${MAX_VIOLATIONS})`

/**
 * Validates `value` against a compiled node graph with an explicit work stack (no recursion, so
 * any schema or value depth). Every violation is path-qualified; combinators evaluate their
 * branches into counting trial sinks. The authority whenever the generated fast path says no.
 * Past `maxSteps` applications the run ends with {@link CHECK_BUDGET_MESSAGE}.
 */
export function runChecker(root: SchemaNode, value: unknown, maxSteps: number): SchemaViolation[] {
  const violations: SchemaViolation[] = []
  const stack: Frame[] = [
    { node: root, value, path: undefined, sink: { violations, count: 0, first: undefined } },
  ]
  let steps = 0
  while (stack.length > 0) {
    const frame = stack.pop()!
    if ('resume' in frame) frame.resume(stack)
    else if (frame.sink.violations !== undefined || frame.sink.count === 0) {
      if (++steps > maxSteps) {
        violations.push({ path: '$', message: CHECK_BUDGET_MESSAGE })
        break
      }
      apply(frame.node, frame.value, frame.path, frame.sink, stack)
    }
    if (violations.length >= MAX_VIOLATIONS) {
      violations.length = MAX_VIOLATIONS
      violations.push({ path: '$', message: MORE_VIOLATIONS_MESSAGE })
      break
    }
  }
  return violations
}

function push(
  groups: Frame[][],
  node: SchemaNode,
  value: unknown,
  path: PathNode | undefined,
  sink: Sink,
): void {
  groups.push([{ node, value, path, sink }])
}

function frame(node: SchemaNode, value: unknown, path: PathNode | undefined, sink: Sink): Frame {
  return { node, value, path, sink }
}

/** A value's own JSON-ness at this level; containers' members are checked where they are visited. */
function shallowProblem(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined
    case 'number':
      return Number.isFinite(value) ? undefined : `expected JSON value, got ${describeType(value)}`
    case 'object':
      if (value === null) return undefined
      if (Array.isArray(value)) {
        if (Object.getPrototypeOf(value) !== Array.prototype)
          return 'expected JSON value, got an array subclass'
        const keys = Reflect.ownKeys(value).length - 1
        if (keys > value.length) return 'expected JSON value, got an array with non-index properties'
        return undefined
      }
      // Symbol keys and non-enumerable members are not looked at here, as in the generated check
      // (README): listing them costs more than the rest of a small object's check. Where no
      // object keyword applies, checkJson still walks the object and reports them.
      if (!isPlainJsonObject(value)) return `expected JSON value, got ${describeObjectKind(value)}`
      return undefined
    default:
      return `expected JSON value, got ${describeType(value)}`
  }
}

function apply(
  node: SchemaNode,
  value: unknown,
  path: PathNode | undefined,
  sink: Sink,
  stack: Frame[],
): void {
  const problem = node.never ? 'no value is allowed here (false schema)' : shallowProblem(value)
  if (!node.never && node.types !== 0 && (problem !== undefined || (node.types & typeBitsOf(value)) === 0)) {
    report(sink, path, typeMessage(node, value))
    return
  }
  if (problem !== undefined) {
    report(sink, path, problem)
    return
  }
  if (node.enumSet !== undefined && !node.enumSet.has(value)) report(sink, path, enumMessage(node))
  if (node.constSet !== undefined && !node.constSet.has(value)) report(sink, path, constMessage(node))
  if (typeof value === 'number') {
    const message = numberMessage(node, value)
    if (message !== undefined) report(sink, path, message)
  } else if (typeof value === 'string') {
    const message = stringMessage(node, value)
    if (message !== undefined) report(sink, path, message)
  }
  const groups: Frame[][] = []
  applicators(node, value, path, sink, groups)
  // An applicator that must pass (ref, allOf, anyOf, oneOf) already checks that the members are
  // JSON; checking them here too would make recursive schemas quadratic.
  const delegated = node.ref !== undefined || node.allOf.length + node.anyOf.length + node.oneOf.length > 0
  if (typeof value === 'object' && value !== null) {
    const isArray = Array.isArray(value)
    if (!(isArray ? node.arrayKeywords : node.objectKeywords)) {
      if (!delegated) checkJson(sink, path, [], value)
    } else if (isArray) array(node, value, path, sink, groups, delegated)
    else object(node, value as Record<string, unknown>, path, sink, groups, delegated)
  }
  // Groups run in creation order (violations in declaration order); a group's own frames keep
  // their order (a combinator's resume frame sits below its branch trials).
  for (let i = groups.length - 1; i >= 0; i--) stack.push(...groups[i]!)
}

function applicators(
  node: SchemaNode,
  value: unknown,
  path: PathNode | undefined,
  sink: Sink,
  stack: Frame[][],
): void {
  if (node.ref !== undefined) push(stack, node.ref, value, path, sink)
  for (const child of node.allOf) push(stack, child, value, path, sink)
  if (node.anyOf.length > 0 && !explainByTag(node.anyOf, value, path, sink, stack))
    anyOf(node, value, path, sink, stack)
  if (node.oneOf.length > 0 && !explainByTag(node.oneOf, value, path, sink, stack)) {
    const trials = node.oneOf.map(() => trialSink())
    const group: Frame[] = [
      {
        resume: () => {
          const message = oneOfMessage(trials)
          if (message !== undefined) report(sink, path, message)
        },
      },
    ]
    for (let i = 0; i < node.oneOf.length; i++) group.push(frame(node.oneOf[i]!, value, path, trials[i]!))
    stack.push(group)
  }
  if (node.not !== undefined) {
    const trial = trialSink()
    stack.push([
      {
        resume: () => {
          if (trial.count === 0) report(sink, path, 'expected the value not to match the "not" schema')
        },
      },
      frame(node.not, value, path, trial),
    ])
  }
  if (node.ifNode !== undefined && (node.thenNode !== undefined || node.elseNode !== undefined)) {
    const trial = trialSink()
    const { thenNode, elseNode } = node
    stack.push([
      {
        resume: (inner) => {
          const next = trial.count === 0 ? thenNode : elseNode
          if (next !== undefined) inner.push(frame(next, value, path, sink))
        },
      },
      frame(node.ifNode, value, path, trial),
    ])
  }
}

/**
 * A tagged union (see tagged-union.ts) is explained by the branch its tag names, or by the tag
 * itself; returns false when the union has no usable tag for this value.
 */
function explainByTag(
  branches: readonly SchemaNode[],
  value: unknown,
  path: PathNode | undefined,
  sink: Sink,
  stack: Frame[][],
): boolean {
  const choice = chooseByTag(branches, value)
  if (choice === undefined) return false
  if (choice.kind === 'branch') push(stack, branches[choice.index]!, value, path, sink)
  else if (choice.kind === 'missing')
    report(sink, path, `missing required property ${JSON.stringify(choice.key)}`)
  else reportAt(sink, path, [choice.key], choice.message)
  return true
}

/** anyOf tries branches one at a time and stops at the first match. */
function anyOf(
  node: SchemaNode,
  value: unknown,
  path: PathNode | undefined,
  sink: Sink,
  stack: Frame[][],
): void {
  const trials: Sink[] = []
  const next = (inner: Frame[]): void => {
    if (trials.length > 0 && trials[trials.length - 1]!.count === 0) return
    if (trials.length === node.anyOf.length) {
      const details = trials.map((t, i) =>
        `branch ${i}: ${t.first?.path ?? '$'} ${t.first?.message ?? ''}`.slice(0, 200),
      )
      report(
        sink,
        path,
        `expected at least one of ${trials.length} anyOf branches to match, got none (${details.join('; ')})`,
      )
      return
    }
    const trial = trialSink()
    trials.push(trial)
    inner.push({ resume: next }, frame(node.anyOf[trials.length - 1]!, value, path, trial))
  }
  stack.push([{ resume: next }])
}

function array(
  node: SchemaNode,
  value: unknown[],
  path: PathNode | undefined,
  sink: Sink,
  stack: Frame[][],
  delegated: boolean,
): void {
  const length = value.length
  if (node.minItems !== undefined && length < node.minItems)
    report(sink, path, `expected at least ${countNoun(node.minItems, 'item')}, got ${length}`)
  if (node.maxItems !== undefined && length > node.maxItems)
    report(sink, path, `expected at most ${countNoun(node.maxItems, 'item')}, got ${length}`)
  for (let i = 0; i < length; i++) {
    if (!hasOwn.call(value, i)) {
      report(sink, path, `expected JSON value, got a sparse array (hole at index ${i})`)
      return
    }
  }
  if (node.uniqueItems) {
    const duplicate = findDuplicate(value)
    if (duplicate !== undefined)
      report(sink, path, `expected unique items, got equal items at ${duplicate[0]} and ${duplicate[1]}`)
  }
  const prefix = node.prefixItems
  for (let i = 0; i < length; i++) {
    const child = i < prefix.length ? prefix[i] : node.items
    if (child !== undefined) push(stack, child, value[i], { parent: path, key: i }, sink)
    else if (!delegated) checkJson(sink, path, [i], value[i])
  }
  const contains = node.contains
  if (contains !== undefined) {
    const trials = value.map(() => trialSink())
    const group: Frame[] = [
      {
        resume: () => {
          let matched = 0
          for (const trial of trials) if (trial.count === 0) matched++
          if (matched < node.minContains)
            report(
              sink,
              path,
              `expected at least ${countNoun(node.minContains, 'item')} matching "contains", got ${matched}`,
            )
          else if (node.maxContains !== undefined && matched > node.maxContains)
            report(
              sink,
              path,
              `expected at most ${countNoun(node.maxContains, 'item')} matching "contains", got ${matched}`,
            )
        },
      },
    ]
    for (let i = 0; i < length; i++)
      group.push(frame(contains, value[i], { parent: path, key: i }, trials[i]!))
    stack.push(group)
  }
}

function object(
  node: SchemaNode,
  value: Record<string, unknown>,
  path: PathNode | undefined,
  sink: Sink,
  stack: Frame[][],
  delegated: boolean,
): void {
  const keys = Object.keys(value)
  if (node.minProperties !== undefined && keys.length < node.minProperties)
    report(
      sink,
      path,
      `expected at least ${countNoun(node.minProperties, 'property', 'properties')}, got ${keys.length}`,
    )
  if (node.maxProperties !== undefined && keys.length > node.maxProperties)
    report(
      sink,
      path,
      `expected at most ${countNoun(node.maxProperties, 'property', 'properties')}, got ${keys.length}`,
    )
  for (const name of node.required) {
    if (!hasOwn.call(value, name)) report(sink, path, `missing required property ${JSON.stringify(name)}`)
  }
  for (const { key, names } of node.dependentRequired) {
    if (!hasOwn.call(value, key)) continue
    for (const name of names) {
      if (!hasOwn.call(value, name))
        report(sink, path, `property ${JSON.stringify(key)} requires property ${JSON.stringify(name)}`)
    }
  }
  for (const { key, node: child } of node.dependentSchemas)
    if (hasOwn.call(value, key)) push(stack, child, value, path, sink)
  node.propertyKeys.forEach((key, i) => {
    const descriptor = Object.getOwnPropertyDescriptor(value, key)
    if (descriptor === undefined) return
    if (!('value' in descriptor)) reportAt(sink, path, [key], 'expected JSON value, got an accessor property')
    else push(stack, node.propertyNodes[i]!, descriptor.value, { parent: path, key }, sink)
  })
  // Consecutive unexpected properties share one frame (in key order, like separate frames would
  // be): 300,000 of them must not cost 300,000 closures when only MAX_VIOLATIONS are listed.
  let unexpected: PathNode[] = []
  const flush = () => {
    if (unexpected.length === 0) return
    const run = unexpected
    unexpected = []
    stack.push([
      {
        resume: () => {
          for (const at of run) {
            report(sink, at, `unexpected property ${JSON.stringify(at.key)}`)
            if (sink.violations === undefined || sink.violations.length >= MAX_VIOLATIONS) return
          }
        },
      },
    ])
  }
  for (const key of keys) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key)!
    const member = descriptor.value
    const at: PathNode = { parent: path, key }
    const declared = node.properties?.has(key) === true
    if (!('value' in descriptor)) {
      if (!declared) reportAt(sink, path, [key], 'expected JSON value, got an accessor property')
      continue
    }
    if (node.propertyNames !== undefined) {
      flush()
      push(stack, node.propertyNames, key, at, sink)
    }
    let covered = declared
    for (const entry of node.patternProperties) {
      if (entry.regex.test(key)) {
        covered = true
        flush()
        push(stack, entry.node, member, at, sink)
      }
    }
    if (covered) continue
    if (node.additionalProperties !== undefined) {
      if (node.additionalProperties.never) unexpected.push(at)
      else {
        flush()
        push(stack, node.additionalProperties, member, at, sink)
      }
    } else if (!delegated) {
      const problem = findJsonProblem(member)
      if (problem !== undefined) reportAt(sink, path, [key, ...problem.segments], problem.message)
    }
  }
  flush()
}

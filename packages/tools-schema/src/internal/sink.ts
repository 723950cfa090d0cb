import {
  type Checker,
  KIND_BOOLEAN,
  KIND_INTEGER,
  KIND_NULL,
  KIND_NUMBER,
  KIND_STRING,
  type Sink,
} from './checker'
import { describeType } from './describe'
import { findJsonProblem, isPlainJsonObject } from './json-check'
import { formatPath, formatSegment, type PathNode } from './path'

/** A counting sink for one oneOf branch trial. */
export function trialSink(): Sink {
  return { violations: undefined, count: 0, first: undefined }
}

/** Trial sinks quote at most this many trailing path segments (keeps nested oneOf linear). */
const TRIAL_PATH_SEGMENTS = 16

/** Records a violation at a formatted path. */
export function reportFormatted(sink: Sink, path: string, message: string): void {
  sink.count++
  if (sink.violations !== undefined) sink.violations.push({ path, message })
  else if (sink.first === undefined) sink.first = { path, message }
}

/** Records a violation at a linked path. */
export function report(sink: Sink, path: PathNode | undefined, message: string): void {
  reportAt(sink, path, [], message)
}

/** Records a violation at a linked base path followed by extra segments. */
export function reportAt(
  sink: Sink,
  base: PathNode | undefined,
  segments: readonly (string | number)[],
  message: string,
): void {
  if (sink.violations === undefined) {
    sink.count++
    if (sink.first !== undefined) return
    const limit = Math.max(0, TRIAL_PATH_SEGMENTS - segments.length)
    let path = formatPathTail(base, limit)
    for (const segment of segments) path += formatSegment(segment)
    sink.first = { path, message }
    return
  }
  let path = formatPath(base)
  for (const segment of segments) path += formatSegment(segment)
  reportFormatted(sink, path, message)
}

/** Formats at most `limit` trailing segments of a path (`$…` marks an elided prefix). */
function formatPathTail(node: PathNode | undefined, limit: number): string {
  const segments: string[] = []
  let cursor = node
  for (; cursor !== undefined && segments.length < limit; cursor = cursor.parent) {
    segments.push(formatSegment(cursor.key))
  }
  let out = cursor === undefined ? '$' : '$…'
  for (let i = segments.length - 1; i >= 0; i--) out += segments[i]
  return out
}

/**
 * Checks the parts of a value no keyword constrains (an any-JSON node, an item-less array):
 * reports the first place that is not JSON, at its exact path.
 */
export function checkJson(
  sink: Sink,
  base: PathNode | undefined,
  segments: readonly (string | number)[],
  value: unknown,
): void {
  const problem = findJsonProblem(value)
  if (problem !== undefined) reportAt(sink, base, [...segments, ...problem.segments], problem.message)
}

/**
 * Checks one undeclared own member of an open object: it must be JSON. Reads the descriptor,
 * so an accessor is reported, never invoked.
 */
export function checkExtraMember(
  sink: Sink,
  base: PathNode | undefined,
  segments: readonly (string | number)[],
  object: object,
  key: string,
): void {
  const descriptor = Object.getOwnPropertyDescriptor(object, key)
  if (descriptor === undefined) return
  if (!('value' in descriptor))
    reportAt(sink, base, segments, 'expected JSON value, got an accessor property')
  else checkJson(sink, base, segments, descriptor.value)
}

/** True for a value the object keyword accepts: a plain (JSON-producible) object. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && isPlainJsonObject(value)
}

/** Checks an inline (non-descending) checker; returns a message or undefined. */
export function inlineMessage(checker: Checker, value: unknown): string | undefined {
  switch (checker.kind) {
    case KIND_STRING:
      if (typeof value !== 'string') return `expected string, got ${describeType(value)}`
      break
    case KIND_NUMBER:
      if (typeof value !== 'number' || !Number.isFinite(value))
        return `expected number, got ${describeType(value)}`
      break
    case KIND_INTEGER:
      if (!Number.isInteger(value)) {
        const shown = typeof value === 'number' && Number.isFinite(value) ? ` ${value}` : ''
        return `expected integer, got ${describeType(value)}${shown}`
      }
      break
    case KIND_BOOLEAN:
      if (typeof value !== 'boolean') return `expected boolean, got ${describeType(value)}`
      break
    case KIND_NULL:
      if (value !== null) return `expected null, got ${describeType(value)}`
      break
  }
  if (checker.enumSet !== undefined && !checker.enumSet.has(value)) return checker.enumMessage
  if (checker.hasConst && value !== checker.constValue) return checker.constMessage
  return undefined
}

/** Message for a container type mismatch. */
export function containerMessage(expected: 'object' | 'array', value: unknown): string {
  return `expected ${expected}, got ${describeType(value)}`
}

/** Branch details quoted in a oneOf message are clipped so nested oneOfs stay linear in size. */
const MAX_DETAIL = 160

function clip(text: string): string {
  return text.length <= MAX_DETAIL ? text : `${text.slice(0, MAX_DETAIL)}…`
}

/** Message for a oneOf whose branch trials are complete, or undefined when exactly one matched. */
export function oneOfMessage(branches: readonly Sink[]): string | undefined {
  const matched: number[] = []
  const failures: string[] = []
  branches.forEach((branch, index) => {
    if (branch.count === 0) matched.push(index)
    else if (branch.first !== undefined) {
      failures.push(`branch ${index}: ${clip(branch.first.path)} ${clip(branch.first.message)}`)
    }
  })
  const n = branches.length
  if (matched.length === 0) {
    return `expected exactly one of ${n} oneOf branches to match, got none (${failures.join('; ')})`
  }
  if (matched.length > 1) {
    return `expected exactly one of ${n} oneOf branches to match, got ${matched.length} (branches ${matched.join(', ')})`
  }
  return undefined
}

/**
 * The shape of a JSON text — how many values it holds and how deep it nests — measured in one
 * linear scan, without parsing it. Bytes alone do not bound what a value costs the host: a
 * 15 MB result of one million keys stalled the host for seconds in `JSON.parse`, snapshotting,
 * validation and rendering, all worse than a scan of its characters. Every value that leaves a
 * program (its result, each tool call's arguments) is measured with this where it is produced
 * (in the worker, before it is posted) and again where the host receives its text, before the
 * host parses it, so a worker that skips its own check gains nothing.
 */
import { countNoun } from './count-noun'
import { JSON_CHARS } from './json-chars'

/** How many JSON values a text may hold and how deep its arrays and objects may nest. */
export interface JsonShapeLimits {
  /** Most JSON values: every scalar, array and object counts one, each object member's value included. */
  readonly maxNodes: number
  /** Deepest nesting of arrays and objects (a scalar root is depth 0, `[]` is 1). */
  readonly maxDepth: number
}

/**
 * The defaults every runtime uses for a run's result and each call's arguments. The host's cost
 * of a value (parse, snapshot, validation, rendering) follows its JSON-value count, not its
 * bytes, and an object's keys are the costliest values: through the full Code Mode pipeline a
 * result of one million keys (15 MB) blocked the host's event loop for 6 s and took 500 MB,
 * 50,000 keys 0.35–0.5 s, 20,000 keys 0.25–0.37 s (the machine's scheduling noise alone was
 * 0.15 s) and about 30 MB. 20,000 keeps every value well under half a second on a busy host.
 * 100 levels is far deeper than any tool's arguments, and deep values are slow in every
 * recursive consumer; it stays under tools-core's `valueLimits.maxDepth` (128) with room for the
 * objects that carry a value onward (`run_code`'s `{ result, logs }`), so a value past it gets
 * the runtime's own message, not a later `INVALID_OUTPUT`.
 */
export const DEFAULT_JSON_SHAPE_LIMITS: JsonShapeLimits = Object.freeze({ maxNodes: 20_000, maxDepth: 100 })

/** The verdict of {@link jsonTextShapeIssue} when a limit is passed. */
export interface JsonShapeIssue {
  /** The limit passed. */
  readonly limit: 'maxNodes' | 'maxDepth'
  /** Its value. */
  readonly max: number
}

const { QUOTE, BACKSLASH, COMMA, OPEN_ARRAY, OPEN_OBJECT, CLOSE_ARRAY, CLOSE_OBJECT } = JSON_CHARS

const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09

/**
 * The first of `limits` that `text` passes, or `undefined` when it is within both. One pass over
 * the characters that stops at the first limit passed; strings are skipped whole. For JSON text
 * the value count is exact (the root, plus one per comma between members, plus the first member
 * of every non-empty array or object); for text that is not JSON it is only an estimate, and the
 * parser that follows refuses the text anyway.
 */
export function jsonTextShapeIssue(text: string, limits: JsonShapeLimits): JsonShapeIssue | undefined {
  const { maxNodes, maxDepth } = limits
  let nodes = 1
  let depth = 0
  let opened = false
  const length = text.length
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i)
    if (opened && !isSpace(c)) {
      opened = false
      if (c !== CLOSE_ARRAY && c !== CLOSE_OBJECT) nodes++
    }
    if (c === QUOTE) {
      i = stringEnd(text, i)
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > maxDepth) return { limit: 'maxDepth', max: maxDepth }
      opened = true
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--
    } else if (c === COMMA) {
      nodes++
    } else continue
    if (nodes > maxNodes) return { limit: 'maxNodes', max: maxNodes }
  }
  return nodes > maxNodes ? { limit: 'maxNodes', max: maxNodes } : undefined
}

/**
 * The index of the quote that closes the string opening at `start` (the text's length if none).
 * It jumps from quote to quote with `indexOf` (long strings are most of a large value's text) and
 * counts the backslashes before each: an even run leaves the quote unescaped. Each run of
 * backslashes is counted once, so the work stays linear.
 */
function stringEnd(text: string, start: number): number {
  let quote = start
  for (;;) {
    quote = text.indexOf('"', quote + 1)
    if (quote < 0) return text.length
    let slashes = 0
    for (let k = quote - 1; k > start && text.charCodeAt(k) === BACKSLASH; k--) slashes++
    if (slashes % 2 === 0) return quote
  }
}

/**
 * The message of a value refused by {@link jsonTextShapeIssue}: `what` names the value (`the
 * result`, `arguments for read_file`); `keys` name the config keys that set the two limits.
 */
export function jsonShapeMessage(
  what: string,
  issue: JsonShapeIssue,
  keys: { readonly maxNodes: string; readonly maxDepth: string },
): string {
  return issue.limit === 'maxNodes'
    ? `${what} holds more than ${countNoun(issue.max, 'JSON value')} (\`${keys.maxNodes}\`); return or pass less, e.g. a summary or one page at a time`
    : `${what} nests more than ${countNoun(issue.max, 'level')} deep (\`${keys.maxDepth}\`)`
}

/** A runtime's limits on every value that leaves a program: its result and each call's arguments. */
export interface ValueLimits {
  /** Most JSON values in one value (see {@link JsonShapeLimits.maxNodes}). */
  readonly maxValueNodes: number
  /** Deepest nesting of one value (see {@link JsonShapeLimits.maxDepth}). */
  readonly maxValueDepth: number
}

/**
 * Why the JSON text of a value leaving a program is refused under a runtime's
 * {@link ValueLimits} (the message names `what` and the config keys), or `undefined` when it is
 * within them. The one check both sides of a runtime's boundary run.
 */
export function valueTextIssue(text: string, what: string, limits: ValueLimits): string | undefined {
  const issue = jsonTextShapeIssue(text, { maxNodes: limits.maxValueNodes, maxDepth: limits.maxValueDepth })
  return issue === undefined ? undefined : valueLimitMessage(what, issue.limit, limits)
}

/**
 * The message of a value leaving a program that passed `limit` of a runtime's
 * {@link ValueLimits} (found by a scan of its text, or a walk of a copy of it).
 */
export function valueLimitMessage(what: string, limit: 'maxNodes' | 'maxDepth', limits: ValueLimits): string {
  const max = limit === 'maxNodes' ? limits.maxValueNodes : limits.maxValueDepth
  return jsonShapeMessage(what, { limit, max }, { maxNodes: 'maxValueNodes', maxDepth: 'maxValueDepth' })
}

const positive = (value: unknown, fallback: number): number =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : fallback

/**
 * The {@link ValueLimits} a run message carries as `nodes` and `depth` (worker side). A field
 * that is missing or not a positive integer keeps {@link DEFAULT_JSON_SHAPE_LIMITS}: the host
 * checks every value again whatever the worker does.
 */
export function readValueLimits(message: {
  readonly nodes?: unknown
  readonly depth?: unknown
}): ValueLimits {
  return {
    maxValueNodes: positive(message.nodes, DEFAULT_JSON_SHAPE_LIMITS.maxNodes),
    maxValueDepth: positive(message.depth, DEFAULT_JSON_SHAPE_LIMITS.maxDepth),
  }
}

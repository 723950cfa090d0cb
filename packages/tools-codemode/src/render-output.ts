/**
 * Rendering of the `run_code` canonical value into model-facing text.
 */
import type { JsonValue } from '@dsh/tools-core'

/** The canonical value of a successful `run_code` call. `result` is absent when the program returned `undefined`. */
export interface RunCodeOutput {
  readonly logs: readonly string[]
  readonly result?: JsonValue
}

/** The text shown when a program printed nothing and returned nothing. */
export const EMPTY_RUN_OUTPUT_TEXT = '(run_code completed with no output)'

/** Total indentation (in characters) pretty-printed JSON may reach; deeper subtrees print compact. */
export const MAX_RESULT_INDENT = 10

const INDENT_STEP = 2

/**
 * The model-facing text of a `run_code` output: the printed lines, then the rendered result
 * (a string raw, any other JSON via {@link renderResultJson}). An empty text becomes
 * {@link EMPTY_RUN_OUTPUT_TEXT}.
 */
export function renderRunCodeOutput(output: RunCodeOutput): string {
  const parts = output.logs.slice()
  const { result } = output
  if (result !== undefined) parts.push(typeof result === 'string' ? result : renderResultJson(result))
  const text = parts.join('\n')
  return text === '' ? EMPTY_RUN_OUTPUT_TEXT : text
}

interface Frame {
  /** The container being printed. */
  readonly value: JsonValue[] | { [key: string]: JsonValue }
  /** Object keys (undefined for arrays). */
  readonly keys: string[] | undefined
  /** Next member index. */
  index: number
  /** Indentation of this container's closing bracket; -1 when printed compact. */
  readonly indent: number
}

/**
 * Pretty-print JSON like `JSON.stringify(value, null, 2)`, except that a container whose
 * members would sit deeper than {@link MAX_RESULT_INDENT} characters prints compact
 * (`JSON.stringify(value)` style). Iterative: any nesting depth is printed without recursion.
 */
export function renderResultJson(value: JsonValue): string {
  const out: string[] = []
  const stack: Frame[] = []
  let pending: JsonValue | undefined = value
  let pendingIndent = 0
  for (;;) {
    if (pending !== undefined) {
      const current: JsonValue = pending
      pending = undefined
      if (current === null || typeof current !== 'object') {
        out.push(JSON.stringify(current))
      } else {
        const isArray = Array.isArray(current)
        const keys = isArray ? undefined : Object.keys(current)
        const size = isArray ? current.length : keys!.length
        if (size === 0) {
          out.push(isArray ? '[]' : '{}')
        } else {
          out.push(isArray ? '[' : '{')
          const compact = pendingIndent < 0 || pendingIndent + INDENT_STEP > MAX_RESULT_INDENT
          stack.push({ value: current, keys, index: 0, indent: compact ? -1 : pendingIndent })
        }
      }
    }
    const frame = stack[stack.length - 1]
    if (frame === undefined) break
    const { keys, indent } = frame
    const size = keys === undefined ? (frame.value as JsonValue[]).length : keys.length
    if (frame.index === size) {
      stack.pop()
      if (indent >= 0) out.push('\n', ' '.repeat(indent))
      out.push(keys === undefined ? ']' : '}')
      continue
    }
    const index = frame.index++
    if (index > 0) out.push(',')
    if (indent >= 0) out.push('\n', ' '.repeat(indent + INDENT_STEP))
    if (keys === undefined) {
      pending = (frame.value as JsonValue[])[index]!
    } else {
      const key = keys[index]!
      out.push(JSON.stringify(key), indent >= 0 ? ': ' : ':')
      pending = (frame.value as { [key: string]: JsonValue })[key]!
    }
    pendingIndent = indent >= 0 ? indent + INDENT_STEP : -1
  }
  return out.join('')
}

/**
 * The host's own check of a completed run's result text. The worker checks the result before
 * encoding it, but the program shares the worker's interpreter: it can rebind the `json` module
 * or the builtins the kernel's check reads, or reach the kernel's `done` closure and post any
 * text. So the host checks again what JSON text alone cannot carry losslessly once parsed:
 * integer literals beyond ±(2**53 − 1) and numbers out of the double range, which `JSON.parse`
 * would silently round or turn into `Infinity`, and nesting deeper than the worker allows.
 */
import { JSON_CHARS } from '@dsh/tools-codemode/runtime-kit'

const { QUOTE, BACKSLASH, OPEN_ARRAY, OPEN_OBJECT, CLOSE_ARRAY, CLOSE_OBJECT, MINUS } = JSON_CHARS

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39
}

/** A character that may follow the first of a number literal (digits, `.`, `e`, `E`, `+`, `-`). */
function isNumberTail(code: number): boolean {
  return isDigit(code) || code === 0x2e || code === 0x65 || code === 0x45 || code === 0x2b || code === MINUS
}

/**
 * Why `text` would not parse to the value it spells (a lossy number, or nesting deeper than
 * `maxDepth`), or `undefined`. One linear pass that skips string contents; whether `text` is
 * JSON at all is left to `JSON.parse`.
 */
export function jsonTextProblem(text: string, maxDepth: number): string | undefined {
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code === QUOTE) {
      for (i++; i < text.length; i++) {
        const inner = text.charCodeAt(i)
        if (inner === BACKSLASH) i++
        else if (inner === QUOTE) break
      }
    } else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      depth++
      if (depth > maxDepth) return `a value nested deeper than ${maxDepth} levels`
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) {
      depth--
    } else if (code === MINUS || isDigit(code)) {
      let end = i + 1
      while (end < text.length && isNumberTail(text.charCodeAt(end))) end++
      const literal = text.slice(i, end)
      const value = Number(literal)
      const shown = literal.length > 40 ? `${literal.slice(0, 40)}…` : literal
      if (!Number.isFinite(value)) return `the number ${shown} is beyond the double range`
      if (/^-?\d+$/.test(literal) && !Number.isSafeInteger(value)) {
        return `the integer ${shown} is beyond 2**53-1`
      }
      i = end - 1
    }
  }
  return undefined
}

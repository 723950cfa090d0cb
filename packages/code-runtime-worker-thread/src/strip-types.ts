/**
 * Host-side type stripping with amaro (the stripper Node itself ships): erasable TypeScript only,
 * so `enum`, namespaces and parameter properties fail here, before any worker is used. The
 * program is wrapped as the body of an async arrow first, so top-level `return` and `await`
 * parse; strip-only mode blanks types in place, so line and column numbers survive (line N of
 * the program is line N + 1 of the wrapped source).
 */
import { createRequire } from 'node:module'

/** The stripped, wrapped program, or why the source was refused. */
export type StripResult =
  | { readonly ok: true; readonly source: string }
  | { readonly ok: false; readonly message: string }

interface AmaroError {
  readonly message?: unknown
  readonly code?: unknown
  readonly startLine?: unknown
  readonly startColumn?: unknown
}

type Amaro = { transformSync(source: string, options: { mode: 'strip-only' }): { code: string } }

let amaro: Amaro | undefined

function loadAmaro(): Amaro {
  amaro ??= createRequire(import.meta.url)('amaro') as Amaro
  return amaro
}

/** Wrap the program as an async arrow function expression. */
export function wrapProgram(code: string): string {
  return `(async () => {\n${code}\n})`
}

function describe(error: unknown): string {
  const record = (typeof error === 'object' && error !== null ? error : {}) as AmaroError
  const message = typeof record.message === 'string' ? record.message : String(error)
  const kind = record.code === 'UnsupportedSyntax' ? 'unsupported TypeScript syntax' : 'SyntaxError'
  const line = typeof record.startLine === 'number' ? record.startLine - 1 : undefined
  const column = typeof record.startColumn === 'number' ? record.startColumn : undefined
  const where =
    line !== undefined && line >= 1
      ? ` (line ${line}${column !== undefined ? `, column ${column}` : ''})`
      : ''
  return `${kind}: ${message}${where}`
}

/** Strip the program's types. Never throws. */
export function stripTypeScript(code: string): StripResult {
  try {
    return { ok: true, source: loadAmaro().transformSync(wrapProgram(code), { mode: 'strip-only' }).code }
  } catch (error) {
    return { ok: false, message: describe(error) }
  }
}

/** Load the stripper ahead of the first run (it compiles a WebAssembly module once). */
export function warmTypeStripper(): void {
  stripTypeScript('return 0')
}

/**
 * The interpreter's WebAssembly imports, rewritten before instantiation: the ones in the
 * boundary lists become refusals, the exits end the run. Imports are bound at instantiation
 * (not stored in memory), so a module restored from a snapshot gets the same refusals.
 */
import { EXIT_IMPORTS, REFUSED_IMPORT_PREFIXES, REFUSED_IMPORTS } from './boundary'

/** Emscripten's `EPERM` (its musl table), returned negated by a refused syscall. */
const EPERM = 63

const refused: ReadonlySet<string> = new Set(REFUSED_IMPORTS)
const exits: ReadonlySet<string> = new Set(EXIT_IMPORTS)

/** Whether the import `name` is refused. */
export function isRefusedImport(name: string): boolean {
  return refused.has(name) || REFUSED_IMPORT_PREFIXES.some((prefix) => name.startsWith(prefix))
}

/** The stand-in of a refused import: `-EPERM` for syscalls, -1 for `system()`, 0 otherwise. */
export function refusalOf(name: string): () => number {
  if (name === '_emscripten_system') return () => -1
  if (name.startsWith('__syscall_') || name.startsWith('_maybe_')) return () => -EPERM
  return () => 0
}

/**
 * Rewrite `imports.env` in place: each refused import gets its refusal, each exit import calls
 * `onExit(status)`. An import object without an `env` record is left alone.
 */
export function refuseImports(imports: unknown, onExit: (status: number) => void): void {
  const env = (imports as { env?: unknown } | null | undefined)?.env
  if (typeof env !== 'object' || env === null) return
  const table = env as Record<string, unknown>
  for (const name of Object.keys(table)) {
    if (isRefusedImport(name)) table[name] = refusalOf(name)
    else if (exits.has(name) && typeof table[name] === 'function') {
      table[name] = (status: unknown) => onExit(Number(status) | 0)
    }
  }
}

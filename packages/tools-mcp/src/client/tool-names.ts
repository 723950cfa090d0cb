/** The names every major model provider accepts (SPEC §9). */
const MAX_NAME = 64
const SAFE_CHAR = /^[A-Za-z0-9_-]$/

/** A server tool whose local name differs from `<prefix><name>`. */
export interface RenamedTool {
  readonly remote: string
  readonly local: string
  readonly reason: 'sanitized' | 'collision'
}

/** The outcome of {@link assignToolNames}. */
export interface ToolNameAssignment {
  /** Remote name → local, provider-safe name. */
  readonly names: ReadonlyMap<string, string>
  readonly renamed: readonly RenamedTool[]
}

/** Replace every character outside `[A-Za-z0-9_-]` with `_` (by code point). */
export function sanitizeName(text: string): string {
  return Array.from(text, (char) => (SAFE_CHAR.test(char) ? char : '_')).join('')
}

/**
 * Give every remote tool a local name `<prefix><name>`, sanitized to `^[A-Za-z0-9_-]{1,64}$`.
 * Deterministic for a given set of names, whatever order the server lists them in: names that
 * need no change keep them; the others are assigned in code-unit order, and one that collides
 * (after sanitizing or truncating) gets the smallest free `_<n>` suffix that fits.
 */
export function assignToolNames(prefix: string, remoteNames: Iterable<string>): ToolNameAssignment {
  const safePrefix = sanitizeName(prefix).slice(0, MAX_NAME - 1)
  const baseOf = (remote: string) => `${safePrefix}${sanitizeName(remote) || '_'}`.slice(0, MAX_NAME)
  const sorted = [...new Set(remoteNames)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const unchanged = sorted.filter((remote) => baseOf(remote) === `${prefix}${remote}`)
  const taken = new Set<string>(unchanged.map((remote) => `${prefix}${remote}`))
  const names = new Map<string, string>(unchanged.map((remote) => [remote, `${prefix}${remote}`]))
  const renamed: RenamedTool[] = []
  for (const remote of sorted) {
    if (names.has(remote)) continue
    const base = baseOf(remote)
    let local = base
    for (let n = 2; taken.has(local); n++) {
      const suffix = `_${n}`
      local = `${base.slice(0, MAX_NAME - suffix.length)}${suffix}`
    }
    taken.add(local)
    names.set(remote, local)
    if (local !== `${prefix}${remote}`) {
      renamed.push({ remote, local, reason: local === base ? 'sanitized' : 'collision' })
    }
  }
  return { names, renamed }
}

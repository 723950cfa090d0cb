// A guard against regression: cordis' private listener table and the agent-scope symbol are
// each known to exactly one tools-core module. Every other package goes through
// `createScopedEmitter` / `createScope` / `scopeOf`. Scans the real source tree.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const repo = fileURLToPath(new URL('../../../', import.meta.url))
const packages = join(repo, 'packages')

/** Each piece of cordis-facing knowledge, with the one file allowed to hold it. */
const RULES = [
  {
    what: "cordis' listener table (_hooks)",
    pattern: /(?<![\w$])_hooks(?![\w$])/,
    owner: 'packages/tools-core/src/internal/listeners.ts',
  },
  {
    what: "the agent-scope symbol's key ('dsh-tools.scope')",
    pattern: /['"`]dsh-tools\.scope['"`]/,
    owner: 'packages/tools-core/src/internal/scope-key.ts',
  },
] as const

const SOURCE = /\.(?:[cm]?[jt]s|tsx)$/

function sourceFiles(): string[] {
  const out: string[] = []
  for (const pkg of readdirSync(packages, { withFileTypes: true })) {
    if (!pkg.isDirectory()) continue
    const src = join(packages, pkg.name, 'src')
    let entries: string[]
    try {
      entries = readdirSync(src, { recursive: true, encoding: 'utf8' })
    } catch {
      continue
    }
    for (const entry of entries) if (SOURCE.test(entry)) out.push(join(src, entry))
  }
  return out
}

const repoPath = (file: string) => relative(repo, file).split(sep).join('/')

describe('no package but tools-core reads cordis internals', () => {
  it('each piece of knowledge appears in its owning module and nowhere else under packages/*/src', () => {
    const files = sourceFiles()
    const paths = files.map(repoPath)
    // The scan really covers the tree (a broken path would pass vacuously).
    expect(files.length).toBeGreaterThan(100)
    expect(paths).toContain('packages/tools-codemode/src/plugin.ts')
    for (const rule of RULES) {
      const holders = files.filter((file) => rule.pattern.test(readFileSync(file, 'utf8'))).map(repoPath)
      expect(holders, rule.what).toEqual([rule.owner])
    }
  })

  it('the patterns catch the ways a copy is written and spare look-alikes', () => {
    const [hooks, scope] = RULES
    for (const text of ['ctx.events._hooks', "events['_hooks']", '{ _hooks: Record<string, X> }'])
      expect(hooks.pattern.test(text), text).toBe(true)
    for (const text of ["import 'node:perf_hooks'", 'my_hooks', '_hooksCount'])
      expect(hooks.pattern.test(text), text).toBe(false)
    for (const text of [
      "Symbol.for('dsh-tools.scope')",
      'Symbol.for("dsh-tools.scope")',
      'const k = `dsh-tools.scope`',
    ])
      expect(scope.pattern.test(text), text).toBe(true)
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the fiber name scope.ts writes, as text
    for (const text of ['name: `dsh-tools.scope(${key})`', "'dsh-tools.scoped'"])
      expect(scope.pattern.test(text), text).toBe(false)
  })
})

/**
 * The public surface of a package: the names its entry (`src/index.ts`) exports, read from the
 * source, values and types apart, and the names its README's `## API` section lists. A reference
 * plugin pins both in `tests/public-surface.spec.ts`, so its surface cannot grow silently: a
 * reference plugin is what plugin authors copy, and everything it exports reads as public API.
 */
import { readFileSync } from 'node:fs'
import ts from 'typescript'
import { expect } from 'vitest'

/** The most names (values and types together) a reference plugin's entry may export. */
export const MAX_REFERENCE_EXPORTS = 10

/** What an entry exports: value names (what `import *` sees at run time) and type-only names. */
export interface PublicSurface {
  readonly values: readonly string[]
  readonly types: readonly string[]
}

/**
 * Every name `indexFile` exports. The entry holds explicit named re-exports only (CONVENTIONS):
 * an `export *` (which hides what it exports) or a declaration of its own is refused. Type-only
 * names are the ones written `type` — `verbatimModuleSyntax` makes that exact.
 *
 * @param indexFile — the path (or file URL) of the package's `src/index.ts`.
 */
export function publicSurface(indexFile: string | URL): PublicSurface {
  const source = ts.createSourceFile('index.ts', readFileSync(indexFile, 'utf8'), ts.ScriptTarget.Latest)
  const values: string[] = []
  const types: string[] = []
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause
      if (clause === undefined) throw new Error(`${String(indexFile)}: \`export *\` hides what it exports`)
      if (ts.isNamespaceExport(clause)) (statement.isTypeOnly ? types : values).push(clause.name.text)
      else
        for (const element of clause.elements)
          (statement.isTypeOnly || element.isTypeOnly ? types : values).push(element.name.text)
    } else if (ts.isExportAssignment(statement)) values.push('default')
    else if (!ts.isImportDeclaration(statement))
      throw new Error(
        `${String(indexFile)}: the entry re-exports only; found \`${statement.getText(source)}\``,
      )
  }
  return { values: values.sort(), types: types.sort() }
}

/**
 * The names a README's `## API` section lists: each top-level bullet (`- …`) names exports in
 * backticks before its ` — ` (`` - `name`, `inject`, `apply` — the cordis plugin ``); what
 * follows the dash, and nested bullets, describe them.
 *
 * @param readmeFile — the path (or file URL) of the package README.
 */
export function readmeApiNames(readmeFile: string | URL): string[] {
  const lines = readFileSync(readmeFile, 'utf8').split('\n')
  const start = lines.findIndex((line) => line.trim() === '## API')
  if (start === -1) throw new Error(`${String(readmeFile)}: no "## API" section`)
  const end = lines.findIndex((line, index) => index > start && line.startsWith('## '))
  const names = new Set<string>()
  for (const line of lines.slice(start + 1, end === -1 ? undefined : end)) {
    if (!line.startsWith('- ')) continue
    const head = line.split(' — ')[0] ?? ''
    for (const match of head.matchAll(/`([A-Za-z_$][\w$]*)`/g)) names.add(match[1] as string)
  }
  return [...names].sort()
}

/**
 * The two checks of a reference package's `tests/public-surface.spec.ts`, as test bodies: the
 * entry exports exactly `pinned` (read from the source, and seen at run time by `import *` as
 * `entry`), at most {@link MAX_REFERENCE_EXPORTS} names; and the README's API section lists
 * exactly those names.
 *
 * @param testFile — the spec's `import.meta.url` (the package is its folder's parent).
 * @param entry — the spec's `import * as entry from '../src/index'`.
 * @param pinned — the surface, written out in the spec.
 */
export function surfaceChecks(
  testFile: string,
  entry: object,
  pinned: PublicSurface,
): { readonly exports: () => void; readonly readme: () => void } {
  return {
    exports: () => {
      const surface = publicSurface(new URL('../src/index.ts', testFile))
      expect(surface).toEqual(pinned)
      expect(Object.keys(entry).sort()).toEqual(pinned.values)
      expect(surface.values.length + surface.types.length).toBeLessThanOrEqual(MAX_REFERENCE_EXPORTS)
    },
    readme: () => {
      expect(readmeApiNames(new URL('../README.md', testFile))).toEqual(
        [...pinned.values, ...pinned.types].sort(),
      )
    },
  }
}

/** The repository as the docs check sees it: its markdown files and workspace packages. */
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

/** Every markdown file git tracks or would track (ignored files left out), relative to the root. */
export function markdownFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
  return [...new Set(out.split('\n').filter((path) => path !== '' && existsSync(join(ROOT, path))))].sort()
}

/** A workspace package (`packages/*`, `examples/*`). */
export interface WorkspacePackage {
  readonly dir: string
  readonly name: string
  /** Its main entry's source (the `@dsh/source` condition of `exports["."]`), if it has one. */
  readonly barrel: string | undefined
}

export function workspacePackages(): WorkspacePackage[] {
  const packages: WorkspacePackage[] = []
  for (const group of ['packages', 'examples']) {
    for (const entry of readdirSync(join(ROOT, group)).sort()) {
      const manifestPath = join(ROOT, group, entry, 'package.json')
      if (!existsSync(manifestPath)) continue
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
        name: string
        exports?: Record<string, unknown>
      }
      const main = manifest.exports?.['.'] as Record<string, string> | undefined
      const source = main?.['@dsh/source']
      packages.push({
        dir: dirname(manifestPath),
        name: manifest.name,
        barrel: source === undefined ? undefined : join(dirname(manifestPath), source),
      })
    }
  }
  return packages
}

/** The workspace package a file belongs to (the innermost), if any. */
export function packageOf(file: string, packages: readonly WorkspacePackage[]): WorkspacePackage | undefined {
  return packages.find((pkg) => file.startsWith(`${pkg.dir}/`))
}

/**
 * `pnpm pack:all`: installable tarballs of every published package in dist-tarballs/
 * (gitignored), for installing dsh-tools into another project before it is on npm:
 *
 *   npm install ./dist-tarballs/dsh-tools-core-0.1.0.tgz ./dist-tarballs/dsh-tools-schema-0.1.0.tgz @deepseek-ai/cordis
 *
 * The root script builds first (`pnpm build`, turbo-cached); `pnpm test:pack` installs the same
 * tarballs into clean projects, including with the README's own command.
 */
import { join, relative } from 'node:path'
import { packAll, root } from './pack-packages'

/** Where `pnpm pack:all` writes the tarballs. */
export const TARBALL_DIR = join(root, 'dist-tarballs')

async function main(): Promise<void> {
  const packed = await packAll(TARBALL_DIR)
  const out = (line: string) => process.stdout.write(`${line}\n`)
  out(`packed ${packed.size} packages into ${relative(process.cwd(), TARBALL_DIR) || '.'}/:`)
  for (const entry of packed.values())
    out(`  ${entry.name}@${entry.version}  ${relative(root, entry.tarball)}`)
  out('install them into another project with npm, naming every @dsh tarball it needs, e.g.:')
  const core = ['@dsh/tools-core', '@dsh/tools-schema'].flatMap((name) => packed.get(name)?.tarball ?? [])
  out(`  npm install ${core.join(' ')} @deepseek-ai/cordis`)
}

main().catch((error: unknown) => {
  process.stderr.write(`pack:all: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exitCode = 1
})

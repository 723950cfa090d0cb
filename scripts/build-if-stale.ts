/**
 * Builds the workspace packages only when some `dist` is missing or older than its inputs, one
 * line per package as it is built (with its time) and a heartbeat line in any stretch of 8 s
 * without one (scripts/build-in-order.ts), turbo's full output only for a package that fails.
 * `pnpm demo` and `pnpm demo:mcp` run it first, so a fresh clone still works, never looks hung,
 * and a built tree starts the demo at once.
 *
 *   node --import tsx scripts/build-if-stale.ts
 */
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { basename, dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildInOrder, buildNodes } from './build-in-order'
import { startLine } from './build-plan'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/**
 * A turbo cache hit leaves an unchanged dist untouched, so its mtime alone would stay "stale"
 * after a source file is touched: a successful build also stamps each package here.
 */
const STAMPS = join(root, 'node_modules', '.cache', 'build-if-stale')

/** The stamp file of the package in `packageDir`. */
export function stampFile(packageDir: string): string {
  return join(STAMPS, `${basename(packageDir)}.stamp`)
}

/** Files whose change makes every package's build stale. */
const SHARED_INPUTS = ['tsup.shared.ts', 'tsconfig.base.json'] as const
/** Files of one package, besides `src/`, that shape its build. */
const PACKAGE_INPUTS = ['package.json', 'tsconfig.json', 'tsup.config.ts'] as const

async function filesUnder(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return []
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name))
}

async function mtimes(files: readonly string[]): Promise<{ file: string; mtimeMs: number }[]> {
  const out: { file: string; mtimeMs: number }[] = []
  for (const file of files) {
    if (existsSync(file)) out.push({ file, mtimeMs: (await stat(file)).mtimeMs })
  }
  return out
}

/**
 * Why the build of the package in `packageDir` is stale, or `undefined` when its `dist` (or its
 * last successful build's stamp) is newer than every input: `src/**`, its package.json,
 * tsconfig.json and tsup.config.ts, and the `sharedInputs` of the repository.
 */
export async function staleReason(
  packageDir: string,
  sharedInputs: readonly string[] = SHARED_INPUTS.map((file) => join(root, file)),
  stamp: string = stampFile(packageDir),
): Promise<string | undefined> {
  const outputs = await mtimes(await filesUnder(join(packageDir, 'dist')))
  if (outputs.length === 0) return 'no dist'
  const stamped = (await mtimes([stamp]))[0]?.mtimeMs ?? 0
  const built = Math.max(stamped, Math.min(...outputs.map((output) => output.mtimeMs)))
  const inputs = await mtimes([
    ...(await filesUnder(join(packageDir, 'src'))),
    ...PACKAGE_INPUTS.map((file) => join(packageDir, file)),
    ...sharedInputs,
  ])
  const newer = inputs.find((input) => input.mtimeMs > built)
  return newer === undefined ? undefined : `${relative(packageDir, newer.file)} is newer than dist`
}

/** The directories of the published (non-private) workspace packages. */
export async function publishedPackageDirs(): Promise<string[]> {
  const dirs: string[] = []
  for (const name of (await readdir(join(root, 'packages'))).sort()) {
    const manifest = join(root, 'packages', name, 'package.json')
    if (!existsSync(manifest)) continue
    if (JSON.parse(await readFile(manifest, 'utf8')).private !== true) dirs.push(join(root, 'packages', name))
  }
  return dirs
}

async function main(): Promise<number> {
  const stale: string[] = []
  const dirs = await publishedPackageDirs()
  for (const dir of dirs) {
    const reason = await staleReason(dir)
    if (reason !== undefined) stale.push(`${relative(join(root, 'packages'), dir)}: ${reason}`)
  }
  if (stale.length === 0) return 0
  const started = performance.now()
  const print = (line: string) => process.stderr.write(`${line}\n`)
  print(startLine(dirs.length, stale[0]!))
  // turbo needs pnpm on PATH: run it through the pnpm that started us, else the pinned one
  // (npm_execpath is a script for older pnpm, a native binary for pnpm 12)
  const execpath = process.env['npm_execpath']
  const pnpm = !execpath?.includes('pnpm')
    ? ['npx', '-y', 'pnpm@12.4.2']
    : /\.[cm]?js$/.test(execpath)
      ? [process.execPath, execpath]
      : [execpath]
  const built = await buildInOrder(await buildNodes(dirs), {
    turbo: [...pnpm, 'exec', 'turbo'],
    cwd: root,
    // tsup's declaration build is CPU-bound: one package per core
    slots: Math.min(availableParallelism(), 4),
    print,
  })
  if (!built) {
    print('build failed: fix the error above, then run the command again')
    return 1
  }
  await mkdir(STAMPS, { recursive: true })
  // dated when the build started: a source saved during the build still reads as newer
  const startedAt = new Date(Date.now() - (performance.now() - started))
  for (const dir of dirs) {
    await writeFile(stampFile(dir), `${startedAt.toISOString()}\n`)
    await utimes(stampFile(dir), startedAt, startedAt)
  }
  print(`built ${dirs.length} packages in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  return 0
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then(
    (code) => {
      process.exitCode = code
    },
    (error: unknown) => {
      process.stderr.write(`build-if-stale: ${error instanceof Error ? error.message : String(error)}\n`)
      process.exitCode = 1
    },
  )
}

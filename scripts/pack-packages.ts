/**
 * Packs the published workspace packages into installable tarballs with `pnpm pack` (which
 * rewrites `workspace:^` ranges to real versions). Shared by `pnpm pack:all` (tarballs for
 * users, in dist-tarballs/) and `pnpm test:pack` (tarballs it checks and installs). It builds
 * nothing: both callers build first or demand a build.
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const execFileAsync = promisify(execFile)

/** The repository root. */
export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const PNPM = ['npx', '-y', 'pnpm@12.4.2'] as const

/** One packed package: its tarball (absolute path), file list and the manifest inside it. */
export interface Packed {
  readonly dir: string
  readonly name: string
  readonly version: string
  readonly tarball: string
  readonly files: readonly string[]
  readonly manifest: Manifest
}

/** The fields of a tarball's package.json the scripts read. */
export interface Manifest {
  readonly name: string
  readonly version: string
  readonly private?: boolean
  readonly type?: string
  readonly main?: string
  readonly types?: string
  readonly files?: readonly string[]
  readonly exports?: Record<string, unknown>
  readonly dependencies?: Record<string, string>
  readonly peerDependencies?: Record<string, string>
}

/** Run `command` in `cwd`; resolves to its stdout and stderr, rejects with its output on failure. */
export async function run(
  command: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ stdout: string; stderr: string }> {
  const [file, ...args] = command
  try {
    return await execFileAsync(file!, args, { cwd, env, maxBuffer: 64 * 1024 * 1024, timeout: 600_000 })
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string; message: string }
    throw new Error(
      `\`${command.join(' ')}\` failed in ${cwd}\n${failure.stdout ?? ''}${failure.stderr ?? ''}`.trimEnd(),
    )
  }
}

/** Run `command` in `cwd`; resolves to its stdout, rejects with its output on failure. */
export async function sh(
  command: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  return (await run(command, cwd, env)).stdout
}

/** The directories of the published (non-private) packages under packages/, sorted. */
export async function workspacePackages(): Promise<string[]> {
  const dirs = await readdir(join(root, 'packages'))
  const result: string[] = []
  for (const dir of dirs.sort()) {
    const manifestPath = join(root, 'packages', dir, 'package.json')
    if (!existsSync(manifestPath)) continue
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as Manifest
    if (!manifest.private) result.push(join(root, 'packages', dir))
  }
  return result
}

/** One entry of `pnpm pack --json`'s report. */
interface PackReport {
  readonly name: string
  readonly version: string
  readonly filename: string
  readonly files: readonly { path: string }[]
}

async function packedEntry(dir: string, report: PackReport, destination: string): Promise<Packed> {
  const unpacked = await mkdtemp(join(destination, 'manifest-'))
  await sh(['tar', '-xzf', report.filename, '-C', unpacked, 'package/package.json'], destination)
  const manifest = JSON.parse(await readFile(join(unpacked, 'package', 'package.json'), 'utf8')) as Manifest
  await rm(unpacked, { recursive: true, force: true })
  return {
    dir,
    name: report.name,
    version: report.version,
    tarball: report.filename,
    files: report.files.map((file) => file.path),
    manifest,
  }
}

/**
 * Pack every published package into `destination` (created if missing; old tarballs of these
 * packages are replaced). Fails when a package has no dist.
 */
export async function packAll(destination: string): Promise<Map<string, Packed>> {
  const dirs = await workspacePackages()
  for (const dir of dirs) {
    if (!existsSync(join(dir, 'dist'))) throw new Error(`${dir}/dist is missing — run \`pnpm build\` first`)
  }
  await rm(destination, { recursive: true, force: true })
  await mkdir(destination, { recursive: true })
  // one recursive `pnpm pack` (one pnpm start-up instead of one per package)
  const filters = dirs.flatMap((dir) => ['--filter', `./${relative(root, dir)}`])
  const output = await sh(
    [...PNPM, '-r', ...filters, 'pack', '--pack-destination', destination, '--json'],
    root,
  )
  const reports = JSON.parse(output.slice(output.indexOf('['))) as PackReport[]
  const packed = new Map<string, Packed>()
  for (const dir of dirs) {
    const { name } = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as Manifest
    const report = reports.find((entry) => entry.name === name)
    if (!report) throw new Error(`\`pnpm pack\` reported no tarball for ${name}`)
    packed.set(name, await packedEntry(dir, report, destination))
  }
  return packed
}

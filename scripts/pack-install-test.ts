/**
 * Proves "install only what you need", for every published package: packs each workspace
 * package with `pnpm pack` (which rewrites `workspace:^` to real versions), checks each tarball's
 * manifest (scripts/pack-manifest-check.ts), then runs every `npm install "$DSH"/dist-tarballs/…`
 * line of the root README and of each package's README verbatim, each in a clean project, under
 * `--engine-strict` (as npm config in the environment), and:
 *   - fails on any `npm warn` line (EBADENGINE, deprecations, peer conflicts; see
 *     scripts/npm-warnings.ts for the allowlist, empty today);
 *   - checks that exactly the @dsh packages the line names are installed;
 *   - imports each of them from an ES module and `require()`s each from a CommonJS file (Node ≥
 *     20.19 loads ES modules with require), and checks both see the same exports;
 *   - runs the programs of scripts/pack-programs.ts (and type-checks them against the published
 *     .d.ts files) in the first install that has their packages.
 * It fails when a published package is installed by no README line or a program found no install.
 * It packs with the same code as `pnpm pack:all` (scripts/pack-packages.ts) and builds nothing:
 * run `pnpm build` first (CI does). Exits non-zero on any failure.
 *
 *   pnpm test:pack [--keep]
 */
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { ALLOWED_BAD_ENGINES, engineExempt, npmWarnings } from './npm-warnings'
import { checkManifest } from './pack-manifest-check'
import { type Packed, packAll, root, run, sh } from './pack-packages'
import { PACK_PROGRAMS, type PackProgram } from './pack-programs'
import { installLines, tarballPackages } from './readme-installs'

const keep = process.argv.includes('--keep')

const problems: string[] = []
const log = (line: string) => process.stdout.write(`${line}\n`)
const step = (line: string) => log(`\n▶ ${line}`)
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`

/** npm's settings for every README line: strict engines, the local cache first, no noise. */
const NPM_ENV = {
  npm_config_engine_strict: 'true',
  npm_config_prefer_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
} as const

/** One README install line and the READMEs that give it. */
interface InstallLine {
  readonly line: string
  readonly readmes: string[]
}

async function readmeInstallLines(packageDirs: readonly string[]): Promise<InstallLine[]> {
  const byLine = new Map<string, InstallLine>()
  for (const readme of [join(root, 'README.md'), ...packageDirs.map((dir) => join(dir, 'README.md'))]) {
    const name = relative(root, readme)
    const lines = existsSync(readme) ? installLines(await readFile(readme, 'utf8')) : []
    if (lines.length === 0)
      problems.push(`${name}: no \`npm install "$DSH"/dist-tarballs/…\` line in a sh block`)
    for (const line of lines) {
      const known = byLine.get(line)
      if (known) known.readmes.push(name)
      else byLine.set(line, { line, readmes: [name] })
    }
  }
  return [...byLine.values()]
}

/** Import and require every package in `names`; both must give the same, non-empty exports. */
async function smokeTest(dir: string, names: readonly string[]): Promise<void> {
  const list = JSON.stringify(names)
  await writeFile(
    join(dir, 'imports.mjs'),
    `const out = {}
for (const name of ${list}) out[name] = Object.keys(await import(name)).sort()
console.log(JSON.stringify(out))
`,
  )
  await writeFile(
    join(dir, 'requires.cjs'),
    `const out = {}
for (const name of ${list}) out[name] = Object.keys(require(name)).filter((key) => key !== '__esModule').sort()
console.log(JSON.stringify(out))
`,
  )
  const imported = JSON.parse(await sh([process.execPath, 'imports.mjs'], dir)) as Record<string, string[]>
  const { stdout, stderr } = await run([process.execPath, 'requires.cjs'], dir)
  const required = JSON.parse(stdout) as Record<string, string[]>
  if (stderr.trim() !== '') problems.push(`require() printed on stderr: ${stderr.trim()}`)
  for (const name of names) {
    const keys = imported[name] ?? []
    if (keys.length === 0) problems.push(`${name}: import gives no exports`)
    if ((required[name] ?? []).join() !== keys.join())
      problems.push(`${name}: require() exports [${required[name]}] differ from import's [${keys}]`)
    log(`    ${name}: ${keys.length} exports by import and by require()`)
  }
}

async function runProgram(dir: string, program: PackProgram): Promise<void> {
  await writeFile(join(dir, program.file), program.source)
  log(`  node ${program.file}`)
  const output = await sh([process.execPath, program.file], dir)
  for (const line of output.trimEnd().split('\n')) log(`    ${line}`)
  if (!program.typecheck) return
  await writeFile(join(dir, 'check.ts'), program.typecheck)
  const compilerOptions = {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    exactOptionalPropertyTypes: true,
    noEmit: true,
    skipLibCheck: false,
    types: ['node'],
    typeRoots: [join(root, 'node_modules', '@types')],
  }
  await writeFile(
    join(dir, 'tsconfig.json'),
    `${JSON.stringify({ compilerOptions, files: ['check.ts'] }, null, 2)}\n`,
  )
  const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc')
  log(`  tsc --noEmit (${program.file}: strict, NodeNext, against the published .d.ts)`)
  await sh([process.execPath, tsc, '-p', 'tsconfig.json'], dir)
}

/**
 * Run one README line verbatim in a clean project; adds the @dsh packages it installed to
 * `covered` and returns those the line names.
 */
async function installAsTheReadmeSays(
  workdir: string,
  index: number,
  entry: InstallLine,
  packed: ReadonlyMap<string, Packed>,
  covered: Set<string>,
): Promise<string[]> {
  step(`install ${index} (${entry.readmes.join(', ')}): ${entry.line}`)
  const dir = join(workdir, `install-${index}`)
  await mkdir(dir)
  await sh(['npm', 'init', '-y'], dir)
  await sh(['npm', 'pkg', 'set', 'type=module'], dir)
  const names = tarballPackages(entry.line)
  // Peers too: npm installs them (e.g. @dsh/tools-ai-sdk's `ai`), engines and all.
  const dependenciesOf = (name: string) => {
    const manifest = packed.get(name)?.manifest
    return Object.keys({ ...manifest?.dependencies, ...manifest?.peerDependencies })
  }
  const exempt = engineExempt(names, ALLOWED_BAD_ENGINES, dependenciesOf)
  for (const dep of exempt) log(`  without --engine-strict: ${dep}: ${ALLOWED_BAD_ENGINES[dep]}`)
  const env = {
    ...process.env,
    ...NPM_ENV,
    DSH: workdir,
    npm_config_engine_strict: String(exempt.length === 0),
  }
  const started = performance.now()
  const { stderr } = await run(['bash', '-c', entry.line], dir, env)
  log(
    `  installed in ${seconds(started)} (${exempt.length === 0 ? '--engine-strict, ' : ''}--prefer-offline)`,
  )
  for (const warning of npmWarnings(stderr)) problems.push(`install ${index}: ${warning}`)
  const atDsh = join(dir, 'node_modules', '@dsh')
  const installed = existsSync(atDsh) ? (await readdir(atDsh)).map((name) => `@dsh/${name}`).sort() : []
  if (installed.join() !== names.join())
    problems.push(`install ${index}: expected exactly [${names}] under node_modules/@dsh, got [${installed}]`)
  for (const name of installed) covered.add(name)
  await smokeTest(dir, names)
  return names
}

async function main(): Promise<void> {
  const started = performance.now()
  const workdir = await mkdtemp(join(tmpdir(), 'dsh-pack-install-'))
  try {
    step('pnpm pack every package (what `pnpm pack:all` does)')
    const packed = await packAll(join(workdir, 'dist-tarballs'))
    log(`  packed ${packed.size} packages in ${seconds(started)}`)
    step('check each tarball (exports, types, files, declared imports)')
    for (const entry of packed.values()) {
      const say = (message: string) => problems.push(message)
      await checkManifest(entry, await mkdtemp(join(workdir, 'unpacked-')), say, log)
    }
    const strict = (
      await sh(['npm', 'config', 'get', 'engine-strict'], workdir, { ...process.env, ...NPM_ENV })
    ).trim()
    if (strict !== 'true')
      problems.push(`npm does not take engine-strict from the environment (got ${strict})`)
    const covered = new Set<string>()
    const pending = [...PACK_PROGRAMS]
    const lines = await readmeInstallLines([...packed.values()].map((entry) => entry.dir))
    for (const [at, entry] of lines.entries()) {
      try {
        const names = await installAsTheReadmeSays(workdir, at + 1, entry, packed, covered)
        for (const program of pending.filter((p) => p.needs.every((name) => names.includes(name)))) {
          pending.splice(pending.indexOf(program), 1)
          await runProgram(join(workdir, `install-${at + 1}`), program)
        }
      } catch (error) {
        problems.push(`install ${at + 1}: ${error instanceof Error ? error.message : String(error)}`)
      }
    }
    for (const name of packed.keys())
      if (!covered.has(name)) problems.push(`${name}: no README install line installs it`)
    for (const program of pending)
      problems.push(`${program.file}: no README install line has all of ${program.needs.join(', ')}`)
  } finally {
    if (keep) log(`\n(kept ${workdir})`)
    else await rm(workdir, { recursive: true, force: true })
  }
  if (problems.length > 0) {
    log(`\n✗ ${problems.length} problem(s) (${seconds(started)}):`)
    for (const problem of problems) log(`  - ${problem}`)
    process.exitCode = 1
    return
  }
  const exempt = Object.keys(ALLOWED_BAD_ENGINES).join(', ')
  log(`\n✓ every package installs under --engine-strict (but what needs ${exempt}), without npm warnings,`)
  log(`  and imports and requires (${seconds(started)})`)
}

main().catch((error: unknown) => {
  log(`\n✗ ${error instanceof Error ? error.message : String(error)}`)
  process.exitCode = 1
})

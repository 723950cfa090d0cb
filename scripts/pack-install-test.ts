/**
 * Proves "install only what you need": packs every workspace package with `pnpm pack` (which
 * rewrites `workspace:^` to real versions), checks each tarball's manifest (exports, types,
 * files, declared dependencies of every bare import in dist), then installs ONLY some tarballs
 * into clean temp projects with npm and runs a program against them:
 *   1. @dsh/tools-core + @dsh/tools-schema — the seed's `read_file` example (JS, plus a strict
 *      TypeScript check of the same code against the published .d.ts files);
 *   2. @dsh/tool-fs + @dsh/tools-codemode + @dsh/code-runtime-worker-thread (+ core, schema) —
 *      a Code Mode program that calls `read` (run, and type-checked the same way);
 *   3. each `npm install "$DSH"/dist-tarballs/…` line of the README, run verbatim by bash, then
 *      an import of every package it names.
 * It packs with the same code as `pnpm pack:all` (scripts/pack-packages.ts).
 * It builds nothing: run `pnpm build` first (CI does). Exits non-zero on any failure.
 *
 *   pnpm test:pack [--keep]
 */
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { builtinModules, createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Packed, packAll, root, sh } from './pack-packages'

const keep = process.argv.includes('--keep')
const NPM_INSTALL = ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'] as const

const problems: string[] = []
const log = (line: string) => process.stdout.write(`${line}\n`)
const step = (line: string) => log(`\n▶ ${line}`)

/** Every target a conditional export may point at, with the condition path. */
function exportTargets(value: unknown, path: string): { path: string; target: string }[] {
  if (typeof value === 'string') return [{ path, target: value }]
  if (value === null || typeof value !== 'object') return []
  return Object.entries(value).flatMap(([key, inner]) => exportTargets(inner, `${path}.${key}`))
}

// Node's own module list, so a bundled dependency importing e.g. `v8` or `http` without the
// `node:` prefix is not mistaken for an undeclared package.
const BUILTIN_NAMES = new Set(builtinModules)
const isBuiltin = (specifier: string): boolean =>
  specifier.startsWith('node:') || BUILTIN_NAMES.has(specifier) || BUILTIN_NAMES.has(specifier.split('/')[0]!)

function packageOf(specifier: string): string {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!
}

/** Check a tarball's manifest and contents; problems go to `problems`. */
async function checkManifest(packed: Packed, unpackDir: string): Promise<void> {
  const { manifest, files, name } = packed
  const say = (message: string) => problems.push(`${name}: ${message}`)
  const has = (target: string) => files.includes(target.replace(/^\.\//, ''))
  if (manifest.type !== 'module') say('"type" is not "module"')
  for (const field of ['dependencies', 'peerDependencies'] as const) {
    for (const [dep, spec] of Object.entries(manifest[field] ?? {})) {
      if (spec.startsWith('workspace:') || spec.startsWith('link:') || spec.startsWith('file:')) {
        say(`${field}.${dep} is "${spec}" in the tarball`)
      }
    }
  }
  if (!manifest.files?.includes('dist')) say('"files" does not list dist')
  if (!manifest.types || !has(manifest.types)) say(`"types" (${manifest.types}) is not in the tarball`)
  if (!manifest.main || !has(manifest.main)) say(`"main" (${manifest.main}) is not in the tarball`)
  const dot = manifest.exports?.['.']
  if (!dot) say('no exports["."]')
  for (const { path, target } of exportTargets(dot, 'exports["."]')) {
    if (path.includes('@dsh/source')) continue // workspace-only condition; its source is not published
    if (!has(target)) say(`${path} → ${target} is not in the tarball`)
  }
  const conditions = dot && typeof dot === 'object' ? Object.keys(dot) : []
  const typesAt = conditions.indexOf('types')
  if (typesAt === -1) say('exports["."] has no "types" condition')
  else if (conditions.indexOf('import') < typesAt) say('exports["."].types must come before "import"')
  // Every bare import of the built code must be a declared dependency or peer.
  await sh(['tar', '-xzf', packed.tarball, '-C', unpackDir], unpackDir)
  const declared = new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ])
  const distFiles = files.filter((file) => /^dist\/.*\.(js|d\.ts)$/.test(file))
  const imported = new Set<string>()
  for (const file of distFiles) {
    const text = await readFile(join(unpackDir, 'package', file), 'utf8')
    // static imports/re-exports, dynamic import(), bare `import 'x'`, require('x') and createRequire(...)('x')
    const pattern =
      /(?:^|[\s;])(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]|(?:\brequire|\))\(\s*['"]([^'"./][^'"]*)['"]\s*\)/gm
    for (const match of text.matchAll(pattern)) {
      const specifier = match[1] ?? match[2] ?? match[3] ?? match[4]
      if (!specifier || specifier.startsWith('.') || isBuiltin(specifier)) continue
      imported.add(packageOf(specifier))
    }
  }
  for (const dep of imported)
    if (dep !== name && !declared.has(dep)) say(`dist imports "${dep}" but does not declare it`)
  if (imported.has('@deepseek-ai/cordis') && !manifest.peerDependencies?.['@deepseek-ai/cordis']) {
    say('imports @deepseek-ai/cordis without a peerDependency on it')
  }
  log(`  ${name}@${packed.version}: ${files.length} files, imports [${[...imported].sort().join(', ')}]`)
}

interface Project {
  readonly label: string
  readonly packages: readonly string[]
  readonly programs: Record<string, string>
  readonly typecheck?: string
}

async function installProject(workdir: string, project: Project, packed: Map<string, Packed>): Promise<void> {
  step(`project "${project.label}": npm install ${project.packages.join(' ')}`)
  const dir = join(workdir, project.label)
  await mkdir(dir, { recursive: true })
  const tarballs = Object.fromEntries(
    project.packages.map((name) => {
      const entry = packed.get(name)
      if (!entry) throw new Error(`no tarball for ${name}`)
      return [name, `file:${entry.tarball}`]
    }),
  )
  const cordis = packed.get('@dsh/tools-core')?.manifest.peerDependencies?.['@deepseek-ai/cordis'] ?? '^4.0.4'
  await writeFile(
    join(dir, 'package.json'),
    `${JSON.stringify(
      {
        name: `pack-install-${project.label}`,
        private: true,
        type: 'module',
        dependencies: { ...tarballs, '@deepseek-ai/cordis': cordis },
        // pin transitive @dsh deps to the local tarballs too, so nothing comes from the registry
        overrides: tarballs,
      },
      null,
      2,
    )}\n`,
  )
  const started = performance.now()
  await sh(['npm', ...NPM_INSTALL], dir)
  log(`  installed in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  const installed = existsSync(join(dir, 'node_modules', '@dsh'))
    ? (await readdir(join(dir, 'node_modules', '@dsh'))).map((entry) => `@dsh/${entry}`).sort()
    : []
  const expected = [...project.packages].sort()
  log(`  node_modules/@dsh: ${installed.join(', ')}`)
  if (installed.join() !== expected.join()) {
    problems.push(
      `${project.label}: expected exactly [${expected.join(', ')}] under node_modules/@dsh, got [${installed.join(', ')}]`,
    )
  }
  for (const [file, source] of Object.entries(project.programs)) {
    await writeFile(join(dir, file), source)
    log(`  node ${file}`)
    const output = await sh([process.execPath, file], dir)
    for (const line of output.trimEnd().split('\n')) log(`    ${line}`)
  }
  if (project.typecheck) {
    await writeFile(join(dir, 'check.ts'), project.typecheck)
    await writeFile(
      join(dir, 'tsconfig.json'),
      `${JSON.stringify(
        {
          compilerOptions: {
            target: 'ES2022',
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            strict: true,
            exactOptionalPropertyTypes: true,
            noEmit: true,
            skipLibCheck: false,
            types: ['node'],
            typeRoots: [join(root, 'node_modules', '@types')],
          },
          files: ['check.ts'],
        },
        null,
        2,
      )}\n`,
    )
    const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc')
    log('  tsc --noEmit check.ts (strict, NodeNext, against the published .d.ts)')
    await sh([process.execPath, tsc, '-p', 'tsconfig.json'], dir)
  }
}

const READ_FILE_PROGRAM = `// The seed's read_file example, against the installed tarballs only.
import assert from 'node:assert/strict'
import { readFile, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { Context } from '@deepseek-ai/cordis'
import ToolRuntime, { defineTool } from '@dsh/tools-core'

const ctx = new Context()
await ctx.plugin(ToolRuntime)

ctx.tools.register(defineTool({
  name: 'read_file',
  description: 'Read a file from disk.',
  parameters: {
    path: { type: 'string', required: true, description: 'Absolute file path' },
    offset: { type: 'number' },
    limit: { type: 'number' },
  },
  output: {
    schema: { type: 'string' },
    render: (_args, value) => [{ type: 'text', text: value }],
  },
  async execute(args, exec) {
    return readFile(args.path, { encoding: 'utf8', signal: exec.signal })
  },
}))

const path = fileURLToPath(new URL('./hello.txt', import.meta.url))
await writeFile(path, 'hello from a tarball\\n')
const signal = new AbortController().signal
const ok = await ctx.tools.execute({ callId: 'call-1', name: 'read_file', arguments: { path }, signal })
assert.equal(ok.isError, false)
assert.equal(ok.value, 'hello from a tarball\\n')
assert.deepEqual(ok.content, [{ type: 'text', text: 'hello from a tarball\\n' }])

const bad = await ctx.tools.execute({ callId: 'call-2', name: 'read_file', arguments: { path: 42 }, signal })
assert.equal(bad.isError, true)
assert.equal(bad.error.info?.code, 'INVALID_ARGS')

assert.deepEqual(ctx.tools.schemas().map((schema) => schema.name), ['read_file'])
await ctx.fiber.dispose()
console.log('read_file example: ok (success value, INVALID_ARGS failure, schemas)')
`

const READ_FILE_TYPECHECK = `import { readFile } from 'node:fs/promises'
import { Context } from '@deepseek-ai/cordis'
import ToolRuntime, { defineTool, type ToolExecutionResult } from '@dsh/tools-core'

const ctx = new Context()
await ctx.plugin(ToolRuntime, { mode: 'native' })

const dispose: () => void = ctx.tools.register(defineTool({
  name: 'read_file',
  description: 'Read a file from disk.',
  parameters: {
    path: { type: 'string', required: true, description: 'Absolute file path' },
    offset: { type: 'number' },
    limit: { type: 'number' },
  },
  output: {
    schema: { type: 'string' },
    render: (_args, value) => [{ type: 'text', text: value }],
  },
  async execute(args, exec) {
    const path: string = args.path
    const offset: number | undefined = args.offset
    void offset
    return readFile(path, { encoding: 'utf8', signal: exec.signal })
  },
}))

const result: ToolExecutionResult = await ctx.tools.execute({
  callId: 'c', name: 'read_file', arguments: { path: '/tmp/x' }, signal: new AbortController().signal,
})
if (result.isError) console.log(result.error.message)
dispose()
`

const CODE_MODE_PROGRAM = `// tool-fs + Code Mode + the worker-thread runtime, against the installed tarballs only.
import assert from 'node:assert/strict'
import { writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { Context } from '@deepseek-ai/cordis'
import ToolRuntime from '@dsh/tools-core'
import * as fsTools from '@dsh/tool-fs'
import * as codeMode from '@dsh/tools-codemode'
import CodeRuntime from '@dsh/code-runtime-worker-thread'

const dir = fileURLToPath(new URL('.', import.meta.url))
await writeFile(new URL('./hello.txt', import.meta.url), 'hello from Code Mode\\n')

const ctx = new Context()
await ctx.plugin(ToolRuntime, { mode: 'code' })
await ctx.plugin(fsTools, { roots: [dir] })
await ctx.plugin(CodeRuntime)
await ctx.plugin(codeMode)

const assembly = ctx.tools.assemble()
assert.deepEqual(assembly.tools.map((tool) => tool.name), ['run_code'])
const sdk = assembly.sections.find((section) => section.id === 'tools:sdk')
assert.ok(sdk && sdk.text.includes('read'), 'the SDK section declares the read binding')

const signal = new AbortController().signal
const direct = await ctx.tools.execute({ callId: 'c0', name: 'read', arguments: { file_path: 'hello.txt' }, signal })
assert.equal(direct.isError, true, 'in code mode only run_code is callable directly')

const result = await ctx.tools.execute({
  callId: 'c1',
  name: 'run_code',
  arguments: {
    description: 'read a file through the read binding',
    code: "const file = await tools.read({ file_path: 'hello.txt' }); console.log('read it'); return file",
  },
  signal,
})
const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('')
assert.equal(result.isError, false, text)
assert.ok(text.includes('hello from Code Mode'), text)
assert.ok(text.includes('read it'), text)
await ctx.fiber.dispose()
console.log('Code Mode program: ok (run_code → tools.read through the worker runtime)')
`

/**
 * The README's install commands (`npm install "$DSH"/dist-tarballs/… ` lines in its sh blocks),
 * each run verbatim by bash in a fresh `npm init` project with DSH pointing at `workdir`, whose
 * dist-tarballs/ holds what `pnpm pack:all` writes; then every @dsh package the line names is
 * imported there.
 */
async function installAsTheReadmeSays(workdir: string): Promise<void> {
  const readme = await readFile(join(root, 'README.md'), 'utf8')
  const blocks = [...readme.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1]!)
  const lines = blocks
    .flatMap((block) => block.split('\n'))
    .filter((line) => line.startsWith('npm install "$DSH"'))
  if (lines.length === 0)
    problems.push('README.md: no `npm install "$DSH"/dist-tarballs/…` line in a sh block')
  for (const [index, line] of lines.entries()) {
    step(`README install line ${index + 1}: ${line}`)
    const dir = join(workdir, `readme-${index + 1}`)
    await mkdir(dir)
    await sh(['npm', 'init', '-y'], dir)
    await sh(['npm', 'pkg', 'set', 'type=module'], dir)
    await sh(['bash', '-c', line], dir, { ...process.env, DSH: workdir })
    const names = [...new Set(line.match(/dsh-[a-z-]+(?=-\d+\.\d+\.\d+[^ ]*\.tgz)/g) ?? [])].map(
      (file) => `@dsh/${file.slice('dsh-'.length)}`,
    )
    const program = `${names.map((name, at) => `import * as m${at} from '${name}'`).join('\n')}
const modules = { ${names.map((name, at) => `'${name}': m${at}`).join(', ')} }
for (const [name, module] of Object.entries(modules)) {
  if (Object.keys(module).length === 0) throw new Error(name + ' exports nothing')
  console.log(name + ': ' + Object.keys(module).length + ' exports')
}
`
    await writeFile(join(dir, 'imports.mjs'), program)
    const output = await sh([process.execPath, 'imports.mjs'], dir)
    for (const printed of output.trimEnd().split('\n')) log(`    ${printed}`)
  }
}

async function main(): Promise<void> {
  const workdir = await mkdtemp(join(tmpdir(), 'dsh-pack-install-'))
  try {
    step('pnpm pack every package (what `pnpm pack:all` does)')
    const tarballDir = join(workdir, 'dist-tarballs')
    const packed = await packAll(tarballDir)
    step('check each tarball (exports, types, files, declared imports)')
    for (const entry of packed.values()) {
      await checkManifest(entry, await mkdtemp(join(workdir, 'unpacked-')))
    }
    await installProject(
      workdir,
      {
        label: 'core-only',
        packages: ['@dsh/tools-core', '@dsh/tools-schema'],
        programs: { 'read-file.mjs': READ_FILE_PROGRAM },
        typecheck: READ_FILE_TYPECHECK,
      },
      packed,
    )
    await installProject(
      workdir,
      {
        label: 'fs-code-mode',
        packages: [
          '@dsh/code-runtime-worker-thread',
          '@dsh/tool-fs',
          '@dsh/tools-codemode',
          '@dsh/tools-core',
          '@dsh/tools-schema',
        ],
        programs: { 'code-mode.mjs': CODE_MODE_PROGRAM },
        // the same program, type-checked against the published .d.ts of all five packages
        typecheck: CODE_MODE_PROGRAM,
      },
      packed,
    )
    await installAsTheReadmeSays(workdir)
  } finally {
    if (keep) log(`\n(kept ${workdir})`)
    else await rm(workdir, { recursive: true, force: true })
  }
  if (problems.length > 0) {
    log(`\n✗ ${problems.length} problem(s):`)
    for (const problem of problems) log(`  - ${problem}`)
    process.exitCode = 1
    return
  }
  log('\n✓ every tarball installs and works on its own')
}

main().catch((error: unknown) => {
  log(`\n✗ ${error instanceof Error ? error.message : String(error)}`)
  process.exitCode = 1
})

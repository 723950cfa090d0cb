/**
 * How a test starts a TypeScript script in a fresh Node process. Under `--import tsx` every
 * module of the toolkit goes through tsx's loader hooks one by one: about a second of CPU per
 * process before the script does anything. So the script is bundled once per test process
 * (esbuild, memoized) into one ESM file and the child loads that: the script and every workspace
 * source it imports, resolved through the `@dsh/source` condition as tsx would; third-party
 * packages stay external, imported from the very files the sources would import, and each
 * module keeps its own `import.meta.url`, so what a source resolves next to itself (a `.wasm`, a
 * vendored file, a package) is what it resolves under tsx. Where esbuild is not installed, the
 * child runs the script under tsx as before.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { isBuiltin } from 'node:module'
import { tmpdir } from 'node:os'
import { basename, extname, join, sep } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Loader, Plugin } from 'esbuild'

/** Marks the plugin's own `build.resolve` calls, so it does not resolve them again. */
const NESTED = Symbol('nested resolve')
/** `import.meta.url`, `.filename` and `.dirname`, outside identifiers. */
const IMPORT_META = /\bimport\.meta\.(url|filename|dirname)\b/g
const LOADERS: Readonly<Record<string, Loader>> = {
  '.ts': 'ts',
  '.mts': 'ts',
  '.cts': 'ts',
  '.tsx': 'tsx',
  '.js': 'js',
  '.mjs': 'js',
  '.cjs': 'js',
  '.jsx': 'jsx',
}

/** Bundles the workspace sources; keeps third-party packages and Node's builtins external. */
const workspacePlugin: Plugin = {
  name: 'dsh-workspace-sources',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === NESTED) return undefined
      if (isBuiltin(args.path)) return { path: args.path, external: true }
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: NESTED,
      })
      if (resolved.errors.length > 0) return { errors: resolved.errors }
      if (resolved.external || !resolved.path.includes(`${sep}node_modules${sep}`))
        return { path: resolved.path }
      // Imported by its file's URL: the file Node would load for this import, whatever the bundle's place.
      return { path: pathToFileURL(resolved.path).href, external: true }
    })
    build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8')
      const url = pathToFileURL(args.path)
      const meta = { url: url.href, filename: args.path, dirname: join(args.path, '..') }
      return {
        contents: source.replace(IMPORT_META, (_match, key: keyof typeof meta) => JSON.stringify(meta[key])),
        loader: LOADERS[extname(args.path)] ?? 'js',
      }
    })
  },
}

/**
 * Where bundles are kept, each named by its content: test processes running at once share a
 * file, and a run leaves at most one file per version of a script, whatever ends its process;
 * a version unused for an hour goes when a newer one is written.
 */
const BUNDLES = join(tmpdir(), 'dsh-script-bundles')
const built = new Map<string, Promise<string | undefined>>()

/** Bundle `script` into a file of its own; undefined where esbuild cannot be imported. */
async function bundle(script: string): Promise<string | undefined> {
  let esbuild: typeof import('esbuild')
  try {
    esbuild = await import('esbuild')
  } catch {
    return undefined
  }
  const result = await esbuild.build({
    entryPoints: [script],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node}`,
    conditions: ['@dsh/source'],
    // As Node resolves a package without an exports map: its `main`, never a `module` field.
    mainFields: ['main'],
    plugins: [workspacePlugin],
    write: false,
    logLevel: 'silent',
  })
  const text = result.outputFiles[0]!.text
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 16)
  const name = basename(script, extname(script))
  const file = join(BUNDLES, `${name}-${hash}.mjs`)
  try {
    // Reused: touched, so a cleanup by another run (below) does not take it as unused.
    const now = new Date()
    utimesSync(file, now, now)
    return file
  } catch {
    // Not written yet (or just removed as stale by another run).
  }
  mkdirSync(BUNDLES, { recursive: true })
  // Written aside and renamed: a process starting from the same file never reads half of it.
  const partial = `${file}.${process.pid}.partial`
  writeFileSync(partial, text)
  renameSync(partial, file)
  removeStale(name, file)
  return file
}

/** How long an older version of a script's bundle stays (a run still going may start it). */
const STALE_MS = 3_600_000

/** A new version of `name` was written: its versions unused for {@link STALE_MS} go. */
function removeStale(name: string, current: string): void {
  const version = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-[0-9a-f]{16}\\.mjs$`)
  for (const entry of readdirSync(BUNDLES)) {
    const path = join(BUNDLES, entry)
    if (!version.test(entry) || path === current) continue
    try {
      if (Date.now() - statSync(path).mtimeMs > STALE_MS) rmSync(path, { force: true })
    } catch {
      // removed by a concurrent run
    }
  }
}

/**
 * The Node arguments that run `script` (after any Node flags of the caller's own): its bundle,
 * built on the first call for that script in this process, or `--import tsx` and the script
 * where esbuild is not installed. Either way with `--conditions=@dsh/source`.
 */
export async function scriptCommand(script: string): Promise<string[]> {
  let file = built.get(script)
  if (file === undefined) {
    file = bundle(script)
    built.set(script, file)
  }
  const bundled = await file
  return bundled === undefined
    ? ['--conditions=@dsh/source', '--import', 'tsx', script]
    : ['--conditions=@dsh/source', bundled]
}

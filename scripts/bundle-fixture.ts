/**
 * A test's fixture child process as one prebuilt ES module, for tests that start real Node
 * processes (MCP servers over stdio, workers racing on one store file).
 *
 * `node --import tsx child.ts` costs about 1 CPU-second per start before the child does anything
 * (tsx's loader hooks, then every module of the SDK or the toolkit resolved and compiled through
 * them); the same child bundled once by esbuild starts in about 0.15 s. The bundle is the same
 * code: the fixture and the package sources it imports (through the `@dsh/source` condition, as
 * the tests themselves resolve them), built once per test process and reused by every start.
 */
import { createHash } from 'node:crypto'
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { extname, join, parse } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build, type Plugin } from 'esbuild'

/** Options of {@link bundleFixture}. */
export interface BundleFixtureOptions {
  /**
   * Packages left out of the bundle (native addons such as `better-sqlite3`, which cannot be
   * bundled): each is imported from where the module importing it would find it unbundled.
   */
  readonly external?: readonly string[]
}

const built = new Map<string, Promise<string>>()

/**
 * Each module keeps its own `import.meta.url` (the file it was bundled from): a module that
 * resolves a file or a package next to itself (`createRequire(import.meta.url)`, a wasm binary)
 * finds it where it would unbundled.
 */
const ownImportMetaUrl: Plugin = {
  name: 'own-import-meta-url',
  setup(context) {
    context.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8')
      if (!text.includes('import.meta.url')) return undefined
      return {
        contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
        loader: extname(args.path).includes('t') ? 'ts' : 'js',
      }
    })
  },
}

/** `names` stay out of the bundle, imported by the absolute URL their importer resolves them to. */
function externalFromImporter(names: readonly string[]): Plugin {
  return {
    name: 'external-from-importer',
    setup(context) {
      if (names.length === 0) return
      const filter = new RegExp(
        `^(${names.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`,
      )
      context.onResolve({ filter }, (args) => ({
        path: pathToFileURL(createRequire(args.importer).resolve(args.path)).href,
        external: true,
      }))
    },
  }
}

/** How long a bundle nobody used stays in the cache (another run may still start it). */
const STALE_MS = 3_600_000

/**
 * The path of `entry` (a TypeScript fixture) bundled into one ES module: start it with
 * `node <path>`. Written to `dsh-fixtures/` in the temporary directory, named by its content:
 * concurrent test processes and later runs share one file, and a changed source gets a new one
 * (older versions of the fixture unused for an hour are removed then).
 */
export function bundleFixture(entry: string, options: BundleFixtureOptions = {}): Promise<string> {
  let file = built.get(entry)
  if (file === undefined) {
    file = write(entry, options)
    built.set(entry, file)
  }
  return file
}

async function write(entry: string, options: BundleFixtureOptions): Promise<string> {
  const { outputFiles } = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@dsh/source'],
    plugins: [ownImportMetaUrl, externalFromImporter(options.external ?? [])],
    // CommonJS dependencies inside an ES module still `require` Node's built-ins.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    write: false,
    logLevel: 'error',
  })
  const code = outputFiles[0]!.contents
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16)
  const dir = join(tmpdir(), 'dsh-fixtures')
  const name = parse(entry).name
  const file = join(dir, `${name}-${hash}.mjs`)
  try {
    const now = new Date()
    utimesSync(file, now, now)
    return file
  } catch {
    // Not written yet (or just removed as stale by another run): write it.
  }
  mkdirSync(dir, { recursive: true })
  // Written aside and renamed: a concurrent test process never starts a half-written file.
  const partial = `${file}.${process.pid}.tmp`
  writeFileSync(partial, code)
  renameSync(partial, file)
  for (const old of readdirSync(dir)) {
    if (!old.startsWith(`${name}-`) || join(dir, old) === file) continue
    try {
      if (Date.now() - statSync(join(dir, old)).mtimeMs > STALE_MS) rmSync(join(dir, old), { force: true })
    } catch {
      // removed by a concurrent run
    }
  }
  return file
}

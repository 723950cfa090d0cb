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
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, join, parse } from 'node:path'
import { buildSync } from 'esbuild'

/** Options of {@link bundleFixture}. */
export interface BundleFixtureOptions {
  /**
   * Packages left out of the bundle and resolved at run time from the fixture's package (native
   * addons such as `better-sqlite3`, which cannot be bundled).
   */
  readonly external?: readonly string[]
}

const built = new Map<string, string>()

/** The package directory holding `file`: the nearest ancestor with a package.json. */
function packageOf(file: string): string {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir
    if (dirname(dir) === dir) throw new Error(`no package.json above ${file}`)
  }
}

/**
 * The path of `entry` (a TypeScript fixture) bundled into one ES module: start it with
 * `node <path>`. Written under the fixture package's `node_modules/.cache/dsh-fixtures/`, so an
 * external package resolves from there; named by its content, so concurrent test processes and
 * later runs share one file and a changed source gets a new one.
 */
export function bundleFixture(entry: string, options: BundleFixtureOptions = {}): string {
  const known = built.get(entry)
  if (known !== undefined) return known
  const { outputFiles } = buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@dsh/source'],
    external: [...(options.external ?? [])],
    // CommonJS dependencies inside an ES module still `require` Node's built-ins.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    write: false,
    logLevel: 'error',
  })
  const code = outputFiles[0]!.contents
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16)
  const dir = join(packageOf(entry), 'node_modules', '.cache', 'dsh-fixtures')
  const file = join(dir, `${parse(entry).name}-${hash}.mjs`)
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true })
    // Written aside and renamed: a concurrent test process never starts a half-written file.
    const partial = `${file}.${process.pid}.tmp`
    writeFileSync(partial, code)
    renameSync(partial, file)
  }
  built.set(entry, file)
  return file
}

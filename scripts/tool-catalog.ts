/**
 * Generates docs/tool-catalog.md from the shipped tool plugins: boots each one in a cordis
 * Context (bash, fs, the timeout policy, and Code Mode with the worker-thread runtime in mode
 * `code`), then writes what `ctx.tools.schemas()` reports — name, description, parameters and
 * output schema — plus the `run_code` transport and the Code Mode prompt sections from
 * `ctx.tools.assemble()`. Output is deterministic.
 *
 *   pnpm catalog          rewrite docs/tool-catalog.md
 *   pnpm catalog:check    exit 1 when the committed file is stale
 *
 * Runs against the packages' dist (build first; both scripts do).
 */
import { readFile, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const target = join(root, 'docs', 'tool-catalog.md')
const check = process.argv.includes('--check')

/**
 * The root package depends on no workspace package, so resolve them the way the agent demo
 * (which depends on every shipped package) sees them: through its node_modules and each
 * package's `exports["."]` (`import`, then `default`) — i.e. the built dist.
 */
async function load(specifier: string): Promise<any> {
  const dir = join(root, 'examples', 'agent-demo', 'node_modules', specifier)
  const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'))
  const dot = manifest.exports?.['.']
  const entry = typeof dot === 'string' ? dot : (dot?.import ?? dot?.default ?? manifest.main)
  if (typeof entry !== 'string') throw new Error(`cannot resolve ${specifier}`)
  const file = join(dir, entry)
  try {
    return await import(pathToFileURL(file).href)
  } catch (error) {
    throw new Error(`cannot load ${specifier} from ${file} — run \`pnpm build\` first`, { cause: error })
  }
}

type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue }
interface ToolSchema {
  readonly name: string
  readonly description: string
  readonly parameters: JsonValue
  readonly outputSchema: JsonValue
}

interface Entry {
  readonly schema: ToolSchema
  readonly pkg: string
  readonly mode: string
  readonly timeoutMs?: number
}

/** Probe arguments used only to classify scheduling (isConcurrencySafe is per call). */
const PROBES: Record<string, JsonValue> = {
  bash: { command: 'true', description: 'probe' },
  read: { file_path: 'README.md' },
  write: { file_path: 'x.txt', content: '' },
  edit: { file_path: 'x.txt', old_string: 'a', new_string: 'b' },
  glob: { pattern: '*' },
  grep: { pattern: 'x' },
  run_code: { code: 'return 1', description: 'probe' },
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2)
}

function fence(text: string, lang: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length))
  const ticks = '`'.repeat(longest + 1)
  return `${ticks}${lang}\n${text.replace(/\n$/, '')}\n${ticks}`
}

function firstSentence(text: string): string {
  const line = text.split('\n')[0] ?? ''
  const end = line.search(/\.(\s+[A-Z`(]|$)/)
  return (end === -1 ? line : line.slice(0, end + 1)).replace(/\|/g, '\\|')
}

async function collect(): Promise<{
  entries: Entry[]
  sections: { id: string; order: number; text: string }[]
}> {
  const { Context } = await load('@deepseek-ai/cordis')
  const { default: ToolRuntime } = await load('@dsh/tools-core')
  const bashTool = await load('@dsh/tool-bash')
  const fsTools = await load('@dsh/tool-fs')
  const timeoutPolicy = await load('@dsh/tool-call-timeout-policy')
  const codeMode = await load('@dsh/tools-codemode')
  const { default: WorkerCodeRuntime } = await load('@dsh/code-runtime-worker-thread')
  const ctx = new Context()
  try {
    await ctx.plugin(ToolRuntime, { mode: 'code' })
    const entries: Entry[] = []
    const seen = new Set<string>()
    const capture = (pkg: string) => {
      for (const schema of ctx.tools.schemas() as ToolSchema[]) {
        if (seen.has(schema.name)) continue
        seen.add(schema.name)
        entries.push({ schema, pkg, mode: '' })
      }
    }
    // bash runs with its real default config: its description names its workdir, which defaults
    // to process.cwd(); `main` writes that path as CWD_PLACEHOLDER so the file is the same on
    // every machine and still says what the default is. The fs root must exist but is not shown.
    await ctx.plugin(bashTool)
    capture('@dsh/tool-bash')
    await ctx.plugin(fsTools, { roots: [root] })
    capture('@dsh/tool-fs')
    await ctx.plugin(timeoutPolicy)
    await ctx.plugin(WorkerCodeRuntime)
    await ctx.plugin(codeMode)
    capture('@dsh/tools-codemode')
    const assembly = ctx.tools.assemble()
    for (const tool of assembly.tools as ToolSchema[]) {
      if (seen.has(tool.name)) continue
      const definition = ctx.tools.get(tool.name)
      seen.add(tool.name)
      entries.push({
        schema: {
          name: tool.name,
          description: tool.description,
          parameters: tool.parameters,
          outputSchema: definition?.output.schema ?? {},
        },
        pkg: '@dsh/tools-codemode',
        mode: '',
      })
    }
    const classified = entries.map((entry) => {
      const definition = ctx.tools.get(entry.schema.name)
      const probe = PROBES[entry.schema.name]
      // The definition's own classifier: executionMode() would see top-level calls to the SDK
      // tools as UNKNOWN_TOOL in mode `code` (they are callable only from inside run_code).
      const mode =
        probe !== undefined && definition?.isConcurrencySafe?.(probe) === true ? 'parallel' : 'exclusive'
      return {
        ...entry,
        mode,
        ...(definition?.timeoutMs !== undefined ? { timeoutMs: definition.timeoutMs } : {}),
      }
    })
    return {
      entries: classified,
      sections: [...(assembly.sections as { id: string; order: number; text: string }[])].sort(
        (a, b) => a.order - b.order || (a.id < b.id ? -1 : 1),
      ),
    }
  } finally {
    await ctx.fiber.dispose()
  }
}

function render(
  entries: readonly Entry[],
  sections: readonly { id: string; order: number; text: string }[],
): string {
  const byName = [...entries].sort((a, b) =>
    a.pkg === b.pkg ? (a.schema.name < b.schema.name ? -1 : 1) : a.pkg < b.pkg ? -1 : 1,
  )
  const out: string[] = [
    '# Tool catalog',
    '',
    '<!-- GENERATED by scripts/tool-catalog.ts from ctx.tools.schemas() and ctx.tools.assemble(). Do not edit: run `pnpm catalog`. -->',
    '',
    'Every tool the shipped plugins register, exactly as `ctx.tools.schemas()` reports it (what the',
    'model sees in native mode), and the Code Mode transport and prompt sections that',
    '`ctx.tools.assemble()` produces in mode `code` with `@dsh/code-runtime-worker-thread` (TypeScript).',
    '`pnpm catalog:check` fails CI when this file is stale.',
    `Every plugin runs with its default config; \`${CWD_PLACEHOLDER}\` stands for the host process's working`,
    "directory when the plugin starts (bash's default `workdir`).",
    '',
    '| tool | package | scheduling | timeout | description |',
    '|---|---|---|---|---|',
    ...byName.map(
      (entry) =>
        `| [\`${entry.schema.name}\`](#${entry.schema.name}) | \`${entry.pkg}\` | ${entry.mode} | ${
          entry.timeoutMs === undefined ? '—' : `${entry.timeoutMs} ms`
        } | ${firstSentence(entry.schema.description)} |`,
    ),
    '',
    'Scheduling is what `ctx.tools.executionMode()` returns for a typical direct call (`isConcurrencySafe` decides per call).',
    'Timeout is the declared `timeoutMs`, enforced by `@dsh/tool-call-timeout-policy`.',
  ]
  for (const entry of byName) {
    out.push(
      '',
      `## ${entry.schema.name}`,
      '',
      `Package \`${entry.pkg}\` · ${entry.mode}${entry.timeoutMs === undefined ? '' : ` · timeoutMs ${entry.timeoutMs}`}`,
      '',
      fence(entry.schema.description, 'text'),
      '',
      '### Parameters',
      '',
      fence(json(entry.schema.parameters), 'json'),
      '',
      '### Output schema',
      '',
      fence(json(entry.schema.outputSchema), 'json'),
    )
  }
  out.push(
    '',
    '## Code Mode prompt sections',
    '',
    'In mode `code` the model gets only the `run_code` tool above, plus these system-prompt sections',
    '(sorted by `order`). The SDK lists the same tools as typed bindings.',
  )
  for (const section of sections) {
    out.push(
      '',
      `### \`${section.id}\` (order ${section.order})`,
      '',
      section.text === '' ? '_(empty)_' : fence(section.text, 'text'),
    )
  }
  return `${out.join('\n')}\n`
}

/** What the catalog shows instead of the generating process's working directory. */
const CWD_PLACEHOLDER = '<process.cwd()>'

/** `text` with every occurrence of this process's working directory replaced by the placeholder. */
function withCwdPlaceholder(text: string): string {
  const cwd = process.cwd()
  // `/` would match every path separator; the catalog is never generated from there
  if (cwd === '/') throw new Error('run the catalog generator from a directory other than /')
  return text.split(cwd).join(CWD_PLACEHOLDER)
}

async function main(): Promise<number> {
  const { entries, sections } = await collect()
  const text = withCwdPlaceholder(render(entries, sections))
  if (check) {
    const current = await readFile(target, 'utf8').catch(() => '')
    if (current !== text) {
      process.stderr.write(
        'docs/tool-catalog.md is stale: the shipped tools changed. Run `pnpm catalog` and commit the result.\n',
      )
      return 1
    }
    process.stdout.write(
      `docs/tool-catalog.md is current (${entries.length} tools, ${sections.length} sections)\n`,
    )
    return 0
  }
  await writeFile(target, text)
  process.stdout.write(`wrote docs/tool-catalog.md (${entries.length} tools, ${sections.length} sections)\n`)
  return 0
}

main().then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    process.exitCode = 1
  },
)

/**
 * Writes each package README's Config table from the package's `Config` (a `configSchema`): the
 * JSON Schema its `~standard.jsonSchema` gives is the one source of the keys, types, defaults,
 * bounds and meanings. The table sits between two markers; everything around it is prose.
 *
 *   pnpm config-tables          rewrite the tables
 *   pnpm config-tables:check    exit 1 when a README's table has drifted from its spec
 *
 * Reads the packages' sources (`--conditions=@dsh/source`), so no build is needed. The docs check
 * (`docs/tests/config-tables.spec.ts`) runs the same comparison.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** One generated table: the README it lives in, the module and export of its `Config`. */
export interface ConfigTable {
  readonly readme: string
  readonly module: string
  readonly exportName: string
}

/** Every package whose config is a `configSchema`. */
export const CONFIG_TABLES: readonly ConfigTable[] = [
  {
    readme: 'packages/code-runtime-pyodide/README.md',
    module: 'packages/code-runtime-pyodide/src/config.ts',
    exportName: 'PyodideRuntimeConfigSchema',
  },
  {
    readme: 'packages/code-runtime-worker-thread/README.md',
    module: 'packages/code-runtime-worker-thread/src/config.ts',
    exportName: 'WorkerThreadRuntimeConfigSchema',
  },
  {
    readme: 'packages/tool-bash/README.md',
    module: 'packages/tool-bash/src/config.ts',
    exportName: 'Config',
  },
  {
    readme: 'packages/tool-call-timeout-policy/README.md',
    module: 'packages/tool-call-timeout-policy/src/plugin.ts',
    exportName: 'Config',
  },
  { readme: 'packages/tool-fs/README.md', module: 'packages/tool-fs/src/config.ts', exportName: 'Config' },
  {
    readme: 'packages/tool-otel/README.md',
    module: 'packages/tool-otel/src/plugin.ts',
    exportName: 'Config',
  },
  {
    readme: 'packages/tools-codemode/README.md',
    module: 'packages/tools-codemode/src/config.ts',
    exportName: 'CodeModeConfigSchema',
  },
  {
    readme: 'packages/tools-mcp/README.md',
    module: 'packages/tools-mcp/src/config.ts',
    exportName: 'Config',
  },
  {
    readme: 'packages/tool-approvals/README.md',
    module: 'packages/tool-approvals/src/config.ts',
    exportName: 'Config',
  },
  {
    readme: 'packages/tools-store-postgres/README.md',
    module: 'packages/tools-store-postgres/src/config.ts',
    exportName: 'PostgresToolStoreConfigSchema',
  },
  {
    readme: 'packages/tools-store-sqlite/README.md',
    module: 'packages/tools-store-sqlite/src/config.ts',
    exportName: 'SqliteToolStoreConfigSchema',
  },
  // The examples a plugin author copies.
  {
    readme: 'examples/custom-tool-plugin/README.md',
    module: 'examples/custom-tool-plugin/src/plugin.ts',
    exportName: 'Config',
  },
  {
    readme: 'examples/policy-plugin/README.md',
    module: 'examples/policy-plugin/src/config.ts',
    exportName: 'Config',
  },
  // The runtime's own config (`ToolRuntime.Config`).
  {
    readme: 'packages/tools-core/README.md',
    module: 'packages/tools-core/src/runtime-config.ts',
    exportName: 'ToolRuntimeConfigSchema',
  },
]

const BEGIN =
  '<!-- config-table:begin (generated from the package Config by scripts/config-tables.ts: edit the spec, then run pnpm config-tables) -->'
const END = '<!-- config-table:end -->'

type Node = Record<string, unknown> & {
  type?: string
  properties?: Record<string, Node>
  required?: string[]
  additionalProperties?: boolean | Node
  items?: Node
  anyOf?: Node[]
  oneOf?: Node[]
  enum?: unknown[]
  description?: string
  default?: unknown
}

const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ')
const code = (value: unknown): string => `\`${JSON.stringify(value)}\``

/** `lo–hi`, `≥ lo` or `≤ hi` (a safe-integer ceiling is no documented bound). */
function range(low: unknown, high: unknown, unit = ''): string {
  const hi = high === Number.MAX_SAFE_INTEGER ? undefined : high
  if (low !== undefined && hi !== undefined) return `${low}–${hi}${unit}`
  if (low !== undefined) return `≥ ${low}${unit}`
  return hi === undefined ? '' : `≤ ${hi}${unit}`
}

/** The short type of a JSON Schema node, with its bounds. */
function typeOf(node: Node): string {
  const branches = node.anyOf ?? node.oneOf
  if (branches !== undefined) return branches.map(typeOf).join(' | ')
  if (node.enum !== undefined) return node.enum.map((member) => JSON.stringify(member)).join(' | ')
  const bounded = (base: string, bounds: string) => (bounds === '' ? base : `${base} (${bounds})`)
  switch (node.type) {
    case undefined:
      return 'host value (not JSON)'
    case 'integer':
    case 'number': {
      // An exclusive bound is written as such (`> 0`); no shipped spec sets both kinds on one side.
      const open = [
        node.exclusiveMinimum === undefined ? '' : `> ${node.exclusiveMinimum}`,
        node.exclusiveMaximum === undefined ? '' : `< ${node.exclusiveMaximum}`,
      ]
      const bounds = [range(node.minimum, node.maximum), ...open].filter((bound) => bound !== '')
      return bounded(node.type, bounds.join(', '))
    }
    case 'string':
      return node.minLength === 1 && node.maxLength === undefined
        ? 'non-empty string'
        : bounded('string', range(node.minLength, node.maxLength, ' chars'))
    case 'array':
      return bounded(
        `${node.items === undefined ? 'JSON' : element(typeOf(node.items))}[]`,
        range(node.minItems, node.maxItems, ' items'),
      )
    case 'object': {
      if (typeof node.additionalProperties === 'object')
        return `{ [key]: ${typeOf(node.additionalProperties)} }`
      const required = new Set(node.required ?? [])
      const keys = Object.keys(node.properties ?? {}).map((key) => (required.has(key) ? key : `${key}?`))
      return `{ ${keys.join(', ')} }`
    }
    default:
      return node.type
  }
}

/** An array's element type: a union is parenthesized (`(string | RegExp)[]`, not `string | RegExp[]`). */
function element(type: string): string {
  return type.includes(' | ') ? `(${type})` : type
}

function rows(object: Node): string[] {
  const required = new Set(object.required ?? [])
  const lines = ['| key | type | default | meaning |', '| --- | --- | --- | --- |']
  for (const [key, field] of Object.entries(object.properties ?? {})) {
    const fallback = field.default !== undefined ? code(field.default) : required.has(key) ? 'required' : '—'
    lines.push(
      `| \`${key}\` | ${cell(`\`${typeOf(field)}\``)} | ${cell(fallback)} | ${cell(field.description ?? '')} |`,
    )
  }
  return lines
}

/** The markdown of one config: its table, then one table per field that is (or may be) one object. */
export function renderConfigTable(schema: Node): string {
  const parts = [rows(schema).join('\n')]
  for (const [key, field] of Object.entries(schema.properties ?? {})) {
    const objects = [field, ...(field.anyOf ?? field.oneOf ?? [])].filter(
      (node) => node.type === 'object' && node.properties !== undefined,
    )
    if (objects.length === 1) parts.push(`\`${key}\` object:\n\n${rows(objects[0]!).join('\n')}`)
  }
  return parts.join('\n\n')
}

/** The README as it should be: its current text with the block between the markers regenerated. */
export async function expectedReadme(table: ConfigTable): Promise<{ current: string; expected: string }> {
  const current = await readFile(join(ROOT, table.readme), 'utf8')
  const module = (await import(pathToFileURL(join(ROOT, table.module)).href)) as Record<string, unknown>
  const schema = module[table.exportName] as {
    '~standard': { jsonSchema: { input(options: { target: string }): Node } }
  }
  const { $schema: _, ...body } = schema['~standard'].jsonSchema.input({ target: 'draft-2020-12' })
  const start = current.indexOf(BEGIN)
  const end = current.indexOf(END)
  if (start < 0 || end < start) throw new Error(`${table.readme}: no ${BEGIN} … ${END} block`)
  const block = `${BEGIN}\n\n${renderConfigTable(body as Node)}\n\n${END}`
  return { current, expected: current.slice(0, start) + block + current.slice(end + END.length) }
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check')
  const stale: string[] = []
  for (const table of CONFIG_TABLES) {
    const { current, expected } = await expectedReadme(table)
    if (current === expected) continue
    stale.push(table.readme)
    if (!check) await writeFile(join(ROOT, table.readme), expected)
  }
  if (check && stale.length > 0) {
    console.error(`config tables out of date (run pnpm config-tables): ${stale.join(', ')}`)
    process.exit(1)
  }
  console.log(check ? 'config tables are current' : `rewrote ${stale.length} config table(s)`)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main()

/**
 * The README's benchmark table, from one or more `pnpm bench` result files: for each quoted
 * figure its floor (a baseline measured in the same run), the ratio to that floor, and the
 * absolute value, each as a min–max range over the runs given. Ratios are what compare across
 * machines and loads; absolute values only hold for the conditions the README states.
 *
 *   node --import tsx scripts/bench-table.ts [bench/results.json …]
 */
import { readFile } from 'node:fs/promises'

interface Row {
  readonly workload: string
  readonly metric: string
  readonly value: number
  readonly unit: string
}

/** A figure: a row by workload prefix and exact metric. */
type Pick = readonly [workloadPrefix: string, metric: string]

interface Figure {
  readonly label: string
  readonly measured: Pick
  /** The baseline of the same run; rates (…/s) and times are both turned into cost ratios. */
  readonly floor?: { readonly label: string; readonly pick: Pick }
}

/** Every figure the README quotes. Add a row here, rerun, paste. */
export const FIGURES: readonly Figure[] = [
  {
    label: '`validateArgs`, nested argument object (10 fields, 50×5 items, enums, oneOf)',
    measured: ['schema-validate', 'validateArgs'],
    floor: { label: 'ajv, compiled', pick: ['schema-validate', 'ajv (compiled)'] },
  },
  {
    label: '`executeBatch`, 1,000 × 1 ms bodies, `maxParallel` 10',
    measured: ['execute_batch', 'total'],
    floor: {
      label: 'bare 10-slot promise pool of the same bodies',
      pick: ['execute_batch', 'floor: bare 10-slot promise pool, same bodies'],
    },
  },
  {
    label: 'JSON Schema validation, discriminated union ×50',
    measured: ['schema-full: discriminated union', 'ours (µs)'],
    floor: { label: 'ajv, compiled', pick: ['schema-full: discriminated union', 'ajv (µs)'] },
  },
  {
    label: 'JSON Schema validation, recursive tree (depth 6)',
    measured: ['schema-full: recursive tree', 'ours (µs)'],
    floor: { label: 'ajv, compiled', pick: ['schema-full: recursive tree', 'ajv (µs)'] },
  },
  {
    label: 'MCP tool call through the pipeline (in-memory transport)',
    measured: ['mcp_overhead', 'MCP tool through tools.execute'],
    floor: {
      label: 'bare SDK `callTool` with an AbortSignal',
      pick: ['mcp_overhead', 'bare SDK callTool, fresh AbortSignal'],
    },
  },
  {
    label: "`bash { command: 'true' }` in the default sandbox, p50",
    measured: ["bash_echo: bash { command: 'true' } sandboxed (default)", 'p50'],
    floor: { label: "bare `spawn('bash')`, p50", pick: ['bash_echo floor', 'p50'] },
  },
  {
    label: '`run_code` of `return 1`, p50 of runs 100 ms apart',
    measured: ['code_mode_cold', 'p50, runs 100 ms apart'],
    floor: { label: 'the worker runtime alone, p50', pick: ['worker_runtime_cold', 'p50 (spaced 100 ms)'] },
  },
  { label: '`ctx.tools.execute`, trivial tool, no listeners', measured: ['native_execute', 'bare'] },
  { label: 'each extra pass-through listener', measured: ['native_execute', 'per extra listener'] },
  {
    label: 'Code Mode sub-calls, sequential `await`',
    measured: ['code_mode_subcalls', 'sequential awaited (trivial tool)'],
  },
  {
    label: 'QuickJS Code Mode sub-calls, sequential `await`',
    measured: ['code_mode_engine quickjs', 'sequential awaited sub-calls'],
    floor: {
      label: 'bare worker `Atomics` ping-pong',
      pick: ['floors: bare worker round trips', 'SharedArrayBuffer/Atomics ping-pong'],
    },
  },
  {
    label: 'Code Mode sub-calls, `Promise.all`',
    measured: ['code_mode_subcalls', 'Promise.all (concurrency-safe tool)'],
  },
  {
    label: '`tools:sdk` text for 300 tools, per assembly',
    measured: ['sdk_generation', 'assemble (cached fragments)'],
  },
  {
    label: '`tools:sdk` for 300 tools, first (cold) assembly',
    measured: ['sdk_generation', 'first assembly (cold cache)'],
  },
  { label: '`read`, 2,000-line window of a 10,000-line file, p50', measured: ['fs_read', 'p50'] },
  { label: '`grep` over a 2,000-file tree, p50', measured: ['fs_grep', 'p50'] },
  {
    label: '`aiSdkTools` `execute` of a trivial tool, drained as the AI SDK does',
    measured: ['ai_sdk_overhead', 'aiSdkTools(ctx).echo.execute, drained'],
    floor: { label: '`ctx.tools.execute` of the same tool', pick: ['ai_sdk_overhead', 'ctx.tools.execute'] },
  },
]

const isRate = (unit: string) => unit.endsWith('/s')

function find(rows: readonly Row[], [prefix, metric]: Pick): Row {
  const row = rows.find((entry) => entry.workload.startsWith(prefix) && entry.metric === metric)
  if (!row) throw new Error(`no bench row "${prefix}…" / "${metric}"`)
  return row
}

function format(value: number): string {
  const digits = value >= 100 ? 0 : value >= 10 ? 1 : value >= 1 ? 2 : 3
  return value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 })
}

const ratio = (value: number) => value.toFixed(2)

function range(values: readonly number[], unit = '', show = format): string {
  const low = show(Math.min(...values))
  const high = show(Math.max(...values))
  const suffix = unit ? ` ${unit}` : ''
  return low === high ? `${low}${suffix}` : `${low}–${high}${suffix}`
}

/** The markdown table for the runs in `runs` (each a results.json `rows` array). */
export function benchTable(runs: readonly (readonly Row[])[]): string {
  const lines = [
    '| figure | floor, measured in the same run | cost ÷ floor | absolute, this machine |',
    '| --- | --- | --- | --- |',
  ]
  for (const figure of FIGURES) {
    const measured = runs.map((rows) => find(rows, figure.measured))
    const unit = measured[0]!.unit
    const absolute = range(
      measured.map((row) => row.value),
      unit,
    )
    if (!figure.floor) {
      lines.push(`| ${figure.label} | — | — | ${absolute} |`)
      continue
    }
    const ratios = runs.map((rows, at) => {
      const floor = find(rows, figure.floor!.pick).value
      const value = measured[at]!.value
      return isRate(unit) ? floor / value : value / floor // cost: time per op relative to the floor
    })
    lines.push(`| ${figure.label} | ${figure.floor.label} | ${range(ratios, '', ratio)}× | ${absolute} |`)
  }
  return lines.join('\n')
}

async function main(): Promise<void> {
  const files = process.argv.slice(2).filter((arg) => arg !== '--')
  const runs: Row[][] = []
  for (const file of files.length > 0 ? files : ['bench/results.json'])
    runs.push((JSON.parse(await readFile(file, 'utf8')) as { rows: Row[] }).rows)
  process.stdout.write(`${benchTable(runs)}\n`)
}

if (process.argv[1]?.endsWith('bench-table.ts')) {
  main().catch((error: unknown) => {
    process.stderr.write(`bench-table: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exitCode = 1
  })
}

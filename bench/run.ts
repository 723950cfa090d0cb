// Runs every workload module in bench/ (each default-exports `run(): Promise<BenchRow[]>`),
// prints one table and writes bench/results.json. `pnpm bench -- <filter>` runs only the
// workload files whose name contains <filter>.
import { readdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { BenchRow, BenchWorkload } from './types'

const here = dirname(fileURLToPath(import.meta.url))
const filters = process.argv.slice(2).filter((arg) => arg !== '--')
const files = readdirSync(here)
  .filter((file) => file.endsWith('.ts') && file !== 'run.ts' && file !== 'types.ts')
  .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)))
  .sort()

const rows: (BenchRow & { file: string })[] = []
for (const file of files) {
  const module = (await import(pathToFileURL(join(here, file)).href)) as { default?: BenchWorkload }
  if (typeof module.default !== 'function') continue
  process.stderr.write(`running ${file}…\n`)
  for (const row of await module.default()) rows.push({ file, ...row })
}

const format = (value: number) =>
  Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 1 ? value.toFixed(2) : value.toPrecision(3)
const table = rows.map((row) => [row.workload, row.metric, format(row.value), row.unit, row.note ?? ''])
const header = ['workload', 'metric', 'value', 'unit', 'note']
const widths = header.map((title, column) =>
  Math.max(title.length, ...table.map((cells) => cells[column]!.length)),
)
const line = (cells: string[]) =>
  cells
    .map((cell, column) => cell.padEnd(widths[column]!))
    .join('  ')
    .trimEnd()
console.log(line(header))
console.log(line(widths.map((width) => '-'.repeat(width))))
for (const cells of table) console.log(line(cells))

const results = { date: new Date().toISOString(), node: process.version, rows }
writeFileSync(join(here, 'results.json'), `${JSON.stringify(results, null, 2)}\n`)

// scripts/bench-table.ts turns `pnpm bench` results into the README's one benchmark table.
import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { benchTable, FIGURES } from '../../../scripts/bench-table'

/** A results row set with every figure and floor the table reads, all at `value`. */
function rows(overrides: Record<string, number>, value = 10) {
  const picks = FIGURES.flatMap((figure) => [figure.measured, ...(figure.floor ? [figure.floor.pick] : [])])
  return picks.map(([workload, metric]) => {
    const key = `${workload}/${metric}`
    const unit = /^(schema-validate|code_mode_subcalls)\//.test(key) ? 'ops/s' : 'ms'
    return { workload: `${workload}: details`, metric, value: overrides[key] ?? value, unit }
  })
}

describe('bench table', () => {
  it('reports cost relative to the floor of the same run: time ÷ floor time, floor rate ÷ rate', () => {
    const table = benchTable([
      rows({
        'execute_batch/total': 130,
        'execute_batch/floor: bare 10-slot promise pool, same bodies': 100,
        'schema-validate/validateArgs': 500_000,
        'schema-validate/ajv (compiled)': 1_000_000,
      }),
    ])
    expect(table).toMatch(
      /\| `executeBatch`[^|]*\| bare 10-slot promise pool of the same bodies \| 1\.30× \| 130 ms \|/,
    )
    expect(table).toMatch(/\| `validateArgs`[^|]*\| ajv, compiled \| 2\.00× \| 500,000 ops\/s \|/)
  })

  it('gives ranges over several runs, so the drift between runs is visible', () => {
    const table = benchTable([
      rows({
        'execute_batch/total': 120,
        'execute_batch/floor: bare 10-slot promise pool, same bodies': 100,
      }),
      rows({
        'execute_batch/total': 300,
        'execute_batch/floor: bare 10-slot promise pool, same bodies': 200,
      }),
    ])
    expect(table).toMatch(/\| bare 10-slot promise pool of the same bodies \| 1\.20–1\.50× \| 120–300 ms \|/)
  })

  it('fails loudly when a figure is missing from the results', () => {
    const incomplete = rows({}).filter((row) => !row.workload.startsWith('fs_grep'))
    expect(() => benchTable([incomplete])).toThrow(/no bench row "fs_grep…"/)
  })

  it("the README's benchmark table quotes exactly these figures", async () => {
    const readme = await readFile(new URL('../../../README.md', import.meta.url), 'utf8')
    const section = readme.split('\n## Benchmarks\n')[1]?.split('\n## ')[0] ?? ''
    const labels = section
      .split('\n')
      .filter((line) => line.startsWith('| ') && !line.startsWith('| figure') && !line.startsWith('| ---'))
      .map((line) => line.split(' | ')[0]!.slice(2))
    expect(labels).toEqual(FIGURES.map((figure) => figure.label))
  })
})

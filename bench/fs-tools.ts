// Workloads: `fs_read` — `read` of a 10,000-line file with a 2,000-line window — and `fs_grep`
// — `grep` over a generated 2,000-file tree — through ctx.tools.execute with the real runtime
// and the real tools (confinement, streaming, validation, rendering, presentation meta).
// Calls run one after another on a temp workspace that is removed afterwards.
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { Context } from '@deepseek-ai/cordis'
import * as toolFs from '@dsh/tool-fs'
import ToolRuntime, { type JsonValue } from '@dsh/tools-core'
import type { BenchRow } from './types'

const WARMUP = 10
const READ_CALLS = 200
const GREP_CALLS = 30

async function makeWorkspace(): Promise<string> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'bench-fs-')))
  const lines = Array.from(
    { length: 10_000 },
    (_, i) => `export const value${i} = ${i} // line ${i + 1} of the file`,
  )
  await fs.writeFile(path.join(root, 'ten-thousand.ts'), `${lines.join('\n')}\n`)
  // 2,000 files: 20 packages × 10 directories × 10 files, 40 lines each; every 7th file has a hit.
  for (let pkg = 0; pkg < 20; pkg++) {
    for (let dir = 0; dir < 10; dir++) {
      const directory = path.join(root, `pkg-${pkg}`, `dir-${dir}`)
      await fs.mkdir(directory, { recursive: true })
      await Promise.all(
        Array.from({ length: 10 }, (_, file) => {
          const index = (pkg * 10 + dir) * 10 + file
          const body = Array.from({ length: 40 }, (_, line) =>
            line === 20 && index % 7 === 0
              ? `// TODO(bench): fix ${index}`
              : `const v${line} = ${line * index}`,
          )
          return fs.writeFile(path.join(directory, `file-${file}.ts`), `${body.join('\n')}\n`)
        }),
      )
    }
  }
  return root
}

const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

/** `fs_read` and `fs_grep`: ms per call, mean / p50 / p95. */
export default async function run(): Promise<BenchRow[]> {
  const root = await makeWorkspace()
  try {
    const ctx = new Context()
    await ctx.plugin(ToolRuntime)
    await ctx.plugin(toolFs, { roots: [root] })
    const signal = new AbortController().signal
    let id = 0
    const call = async (name: string, args: JsonValue) => {
      const result = await ctx.tools.execute({ callId: `bench-${++id}`, name, arguments: args, signal })
      if (result.isError) throw new Error(`${name} failed: ${result.error.message}`)
      return result
    }
    const time = async (calls: number, body: () => Promise<unknown>) => {
      for (let i = 0; i < WARMUP; i++) await body()
      const samples: number[] = []
      for (let i = 0; i < calls; i++) {
        const start = performance.now()
        await body()
        samples.push(performance.now() - start)
      }
      return samples
    }
    const readArgs = { file_path: 'ten-thousand.ts', offset: 4001, limit: 2000 }
    const read = await time(READ_CALLS, () => call('read', readArgs))
    const grepArgs = { pattern: 'TODO\\(bench\\)' }
    const probe = await call('grep', grepArgs)
    const total = probe.isError ? 0 : (probe.value as { total: number }).total
    const grep = await time(GREP_CALLS, () => call('grep', grepArgs))
    const rows: BenchRow[] = []
    const readWorkload = 'fs_read: read 2,000-line window of a 10,000-line file'
    rows.push({
      workload: readWorkload,
      metric: 'mean',
      value: mean(read),
      unit: 'ms/call',
      note: `${READ_CALLS} sequential calls after ${WARMUP} warm-up`,
    })
    rows.push({ workload: readWorkload, metric: 'p50', value: percentile(read, 50), unit: 'ms/call' })
    rows.push({ workload: readWorkload, metric: 'p95', value: percentile(read, 95), unit: 'ms/call' })
    const grepWorkload = 'fs_grep: grep over a 2,000-file tree'
    rows.push({
      workload: grepWorkload,
      metric: 'mean',
      value: mean(grep),
      unit: 'ms/call',
      note: `${GREP_CALLS} sequential calls after ${WARMUP} warm-up; ${total} matching lines`,
    })
    rows.push({ workload: grepWorkload, metric: 'p50', value: percentile(grep, 50), unit: 'ms/call' })
    rows.push({ workload: grepWorkload, metric: 'p95', value: percentile(grep, 95), unit: 'ms/call' })
    return rows
  } finally {
    await fs.rm(root, { recursive: true, force: true })
  }
}

// Workloads: `fs_search` — `grep` and `glob` through ctx.tools.execute (RE2 on a worker thread
// for grep, an RE2-compiled glob) against floors measured in the same run on the same tree: a
// plain main-thread `RegExp` scan (read every file, split lines, test) and a plain walk with a
// `RegExp` file-name test. Ratios > 1 are the cost of linear-time matching off the host thread.
// Hostile rows time the patterns that stalled the old implementation (a backtracking RegExp
// does not finish them, so they have no floor).
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { Context } from '@deepseek-ai/cordis'
import * as toolFs from '@dsh/tool-fs'
import ToolRuntime, { type JsonValue } from '@dsh/tools-core'
import type { BenchRow } from './types'

const WARMUP = 5
const CALLS = 20

async function makeWorkspace(): Promise<string> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'bench-fs-search-')))
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
  // The hostile corner: one megabyte of `a`s, and long `a` file names.
  const hostile = path.join(root, 'hostile')
  await fs.mkdir(hostile)
  await fs.writeFile(
    path.join(hostile, 'as.txt'),
    `${Array.from({ length: 4 }, () => 'a'.repeat(250_000)).join('\n')}\n`,
  )
  await Promise.all(
    Array.from({ length: 100 }, (_, i) => fs.writeFile(path.join(hostile, `${'a'.repeat(120)}${i}`), '')),
  )
  return root
}

async function walk(directory: string, visit: (relative: string, absolute: string) => void, prefix = '') {
  const entries = await fs.readdir(directory, { withFileTypes: true })
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const absolute = path.join(directory, entry.name)
    const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`
    if (entry.isDirectory()) await walk(absolute, visit, relative)
    else if (entry.isFile()) visit(relative, absolute)
  }
}

/** The floor for grep: a plain main-thread RegExp scan of the same files. */
async function regexpGrep(root: string, regex: RegExp): Promise<number> {
  const files: string[] = []
  await walk(root, (relative, absolute) => {
    if (!relative.startsWith('hostile/')) files.push(absolute)
  })
  let total = 0
  for (let index = 0; index < files.length; index += 32) {
    const texts = await Promise.all(files.slice(index, index + 32).map((file) => fs.readFile(file, 'utf8')))
    for (const text of texts) for (const line of text.split('\n')) if (regex.test(line)) total++
  }
  return total
}

/** The floor for glob: a plain walk testing each relative path with a RegExp. */
async function regexpGlob(root: string, regex: RegExp): Promise<number> {
  let total = 0
  await walk(root, (relative) => {
    if (regex.test(relative)) total++
  })
  return total
}

const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length

async function time(calls: number, body: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < WARMUP; i++) await body()
  const samples: number[] = []
  for (let i = 0; i < calls; i++) {
    const start = performance.now()
    await body()
    samples.push(performance.now() - start)
  }
  return mean(samples)
}

/** `fs_search`: grep/glob ms per call and their ratio to a plain RegExp floor; hostile patterns. */
export default async function run(): Promise<BenchRow[]> {
  const root = await makeWorkspace()
  const ctx = new Context()
  await ctx.plugin(ToolRuntime)
  const fiber = ctx.plugin(toolFs, { roots: [root] })
  try {
    await fiber
    const signal = new AbortController().signal
    let id = 0
    const call = async (name: string, args: JsonValue) => {
      const result = await ctx.tools.execute({ callId: `bench-${++id}`, name, arguments: args, signal })
      if (result.isError) throw new Error(`${name} failed: ${result.error.message}`)
      return result.value as { total: number }
    }
    const grepArgs = { pattern: 'TODO\\(bench\\)', glob: '*.ts' }
    const grepTotal = (await call('grep', grepArgs)).total
    const floorTotal = await regexpGrep(root, /TODO\(bench\)/)
    if (grepTotal !== floorTotal) throw new Error(`grep found ${grepTotal}, the floor ${floorTotal}`)
    const grep = await time(CALLS, () => call('grep', grepArgs))
    const grepFloor = await time(CALLS, () => regexpGrep(root, /TODO\(bench\)/))
    const globArgs = { pattern: 'pkg-*/**/file-?.ts' }
    const glob = await time(CALLS, () => call('glob', globArgs))
    const globFloor = await time(CALLS, () => regexpGlob(root, /^pkg-[^/]*\/(?:.*\/)?file-[^/]\.ts$/))
    const hostileGrep = await time(5, () => call('grep', { pattern: '^(a+)+$', path: 'hostile' }))
    const hostileGlob = await time(5, () => call('glob', { pattern: '*a*a*a*a*a*a*a*ab', path: 'hostile' }))
    const workload = 'fs_search: grep/glob over a 2,000-file tree'
    return [
      { workload, metric: 'grep', value: grep, unit: 'ms/call', note: `${grepTotal} matching lines` },
      {
        workload,
        metric: 'grep floor',
        value: grepFloor,
        unit: 'ms/call',
        note: 'plain RegExp scan, main thread',
      },
      { workload, metric: 'grep / floor', value: grep / grepFloor, unit: 'ratio' },
      { workload, metric: 'glob', value: glob, unit: 'ms/call' },
      { workload, metric: 'glob floor', value: globFloor, unit: 'ms/call', note: 'plain walk + RegExp' },
      { workload, metric: 'glob / floor', value: glob / globFloor, unit: 'ratio' },
      {
        workload: 'fs_search_hostile: patterns that stalled the RegExp matcher',
        metric: 'grep ^(a+)+$ on 1 MB of a',
        value: hostileGrep,
        unit: 'ms/call',
        note: 'backtracking RegExp: > 60 s',
      },
      {
        workload: 'fs_search_hostile: patterns that stalled the RegExp matcher',
        metric: 'glob *a*a*a*a*a*a*a*ab, 100 long names',
        value: hostileGlob,
        unit: 'ms/call',
      },
    ]
  } finally {
    await fiber.dispose()
    await fs.rm(root, { recursive: true, force: true })
  }
}

// Workload: `providerResults` for a 50-call turn (text results, every tenth with an image, one
// failure in ten) in each provider's format, no pipeline: target ≤ 0.5 ms per turn.
import type { ToolExecutionResult } from '@dsh/tools-core'
import { PROVIDERS, type ProviderCall, providerResults } from '@dsh/tools-providers'
import type { BenchRow } from './types'

const CALLS = 50
const TURNS = 2_000
const PIXEL =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='

function turn(): { calls: ProviderCall[]; results: ToolExecutionResult[] } {
  const calls: ProviderCall[] = []
  const results: ToolExecutionResult[] = []
  for (let i = 0; i < CALLS; i++) {
    calls.push({
      callId: `call_${i}`,
      name: 'read',
      arguments: { file_path: `src/file-${i}.ts` },
      dialect: 'json-schema',
    })
    const text = `line ${i}: ${'x'.repeat(200)}`
    if (i % 10 === 9) {
      results.push({
        isError: true,
        error: { message: 'no such file' },
        content: [{ type: 'text', text: 'Error: no such file' }],
      })
    } else if (i % 10 === 4) {
      results.push({
        isError: false,
        value: text,
        content: [
          { type: 'text', text },
          { type: 'image', mediaType: 'image/png', data: PIXEL },
        ],
      })
    } else results.push({ isError: false, value: text, content: [{ type: 'text', text }] })
  }
  return { calls, results }
}

export default async function run(): Promise<BenchRow[]> {
  const { calls, results } = turn()
  const rows: BenchRow[] = []
  for (const provider of PROVIDERS) {
    let sink = 0
    for (let i = 0; i < TURNS; i++) sink += providerResults(provider, calls, results).messages.length
    // best of five rounds, so a stall elsewhere on the machine does not count
    let best = Number.POSITIVE_INFINITY
    for (let round = 0; round < 5; round++) {
      const start = performance.now()
      for (let i = 0; i < TURNS; i++) sink += providerResults(provider, calls, results).messages.length
      best = Math.min(best, (performance.now() - start) / TURNS)
    }
    if (sink === 0) throw new Error('no messages')
    rows.push({
      workload: `providers: providerResults, ${CALLS}-call turn (${provider})`,
      metric: 'per turn',
      value: best,
      unit: 'ms',
      note: 'target ≤ 0.5 ms',
    })
  }
  return rows
}

// Workload: the argument budgets Code Mode applies to every sub-call (snapshotJson with
// maxNodes 2,000,000 / maxStringLength 32 Mi, the tools-codemode defaults). Rejecting a
// 40-level shared-reference "DAG bomb" (2^41 values once expanded, 41 distinct arrays) is
// reported as a ratio to the floor of snapshotting an ordinary ~1 KB argument in the same run;
// a 1M-value array shows what a large legitimate argument costs.
import { JsonBudgetError, snapshotJson } from '@dsh/tools-schema'
import type { BenchRow } from './types'

const WORKLOAD = 'snapshot_budget: Code Mode argument budgets'
const BUDGET = { omitUndefinedProperties: true, maxNodes: 2_000_000, maxStringLength: 32 * 1024 * 1024 }

function bomb(levels: number): unknown {
  let v: unknown[] = ['x']
  for (let i = 0; i < levels; i++) v = [v, v]
  return { v }
}

function ordinary(): unknown {
  return {
    path: '/workspace/src/index.ts',
    offset: 10,
    limit: undefined,
    tags: Array.from({ length: 20 }, (_, i) => ({ name: `tag-${i}`, weight: i / 3 })),
  }
}

/** Best µs per iteration over 5 rounds (fresh inputs each time, so nothing is memoized). */
function best(make: () => unknown, iterations: number, expectReject: boolean): number {
  let out = Number.POSITIVE_INFINITY
  for (let round = 0; round < 5; round++) {
    const inputs = Array.from({ length: iterations }, make)
    const start = performance.now()
    for (const input of inputs) {
      try {
        snapshotJson(input, BUDGET)
        if (expectReject) throw new Error('the bomb was accepted')
      } catch (error) {
        if (!expectReject || !(error instanceof JsonBudgetError)) throw error
      }
    }
    out = Math.min(out, ((performance.now() - start) * 1000) / iterations)
  }
  return out
}

export default async function run(): Promise<BenchRow[]> {
  const floor = best(ordinary, 2_000, false)
  const rejected = best(() => bomb(40), 2_000, true)
  const large = best(() => ({ v: Array.from({ length: 1_000_000 }, (_, i) => i) }), 1, false)
  return [
    { workload: WORKLOAD, metric: 'floor: ordinary ~1 KB argument', value: floor, unit: 'µs' },
    { workload: WORKLOAD, metric: '40-level DAG bomb rejected', value: rejected, unit: 'µs' },
    {
      workload: WORKLOAD,
      metric: 'bomb rejection / floor',
      value: rejected / floor,
      unit: 'x',
      note: 'was a host OOM before the budgets',
    },
    { workload: WORKLOAD, metric: '1M-value array accepted', value: large / 1000, unit: 'ms' },
  ]
}

/**
 * Conformance case for listings: filters by kind, agent and state, order by `createdAt` then
 * key, and `limit`.
 */
import type { StoredRecord } from '../tool-state-store'
import { check } from './conformance-assert'
import { caseScope } from './conformance-records'
import {
  type StoreConformanceCase,
  type StoreConformanceHarness,
  withStore,
} from './store-conformance-harness'

const keysOf = (records: readonly StoredRecord[]) => records.map((record) => record.key)

function checkKeys(actual: readonly StoredRecord[], expected: readonly string[], what: string): void {
  const got = keysOf(actual)
  check(
    got.length === expected.length && got.every((key, i) => key === expected[i]),
    `${what}: got keys ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`,
  )
}

/** The list cases of {@link storeConformanceCases}. */
export function listCases(harness: StoreConformanceHarness): StoreConformanceCase[] {
  return [
    {
      name: 'list filters by kind, agent and state, orders by createdAt then key, and honours limit',
      run: () =>
        withStore(harness, async (store) => {
          const scope = caseScope('list')
          const other = `${scope.agent}-other`
          const t = scope.now
          // Inserted out of order; ties on createdAt are broken by key.
          const rows = [
            scope.record('k3', { createdAt: t + 20 }),
            scope.record('k2', { createdAt: t + 10, state: 'approved' }),
            scope.record('k1', { createdAt: t + 10 }),
            scope.record('k0', { createdAt: t + 30, state: 'approved' }),
            scope.record('k4', { createdAt: t + 5, kind: 'outcome' }),
            { ...scope.record('k5', { createdAt: t + 1 }), agent: other },
          ]
          for (const row of rows) await store.create(row)
          const k = scope.key
          checkKeys(
            await store.list({ kind: 'approval', agent: scope.agent }),
            [k('k1'), k('k2'), k('k3'), k('k0')],
            'one agent',
          )
          checkKeys(
            await store.list({ kind: 'approval', agent: scope.agent, state: 'approved' }),
            [k('k2'), k('k0')],
            'one agent, one state',
          )
          checkKeys(await store.list({ kind: 'outcome', agent: scope.agent }), [k('k4')], 'another kind')
          checkKeys(
            await store.list({ kind: 'approval', agent: scope.agent, limit: 2 }),
            [k('k1'), k('k2')],
            'limit 2',
          )
          checkKeys(await store.list({ kind: 'approval', agent: scope.agent, limit: 0 }), [], 'limit 0')
          checkKeys(await store.list({ kind: 'run', agent: scope.agent }), [], 'a kind with no records')
          checkKeys(
            await store.list({ kind: 'approval', agent: scope.agent, state: 'nope' }),
            [],
            'a state with no records',
          )
          // Without an agent: every agent's records, still in order (other cases' records may be there too).
          const all = await store.list({ kind: 'approval' })
          const ours = all.filter((record) => record.agent === scope.agent || record.agent === other)
          checkKeys(ours, [k('k5'), k('k1'), k('k2'), k('k3'), k('k0')], 'every agent')
          check(
            all.every((record) => record.kind === 'approval'),
            'a listing without an agent still filters by kind',
          )
          for (let i = 1; i < all.length; i++) {
            const [a, b] = [all[i - 1] as StoredRecord, all[i] as StoredRecord]
            check(
              a.createdAt < b.createdAt || (a.createdAt === b.createdAt && a.key <= b.key),
              `every-agent listing out of order at ${i}: ${a.key}@${a.createdAt} before ${b.key}@${b.createdAt}`,
            )
          }
        }),
    },
  ]
}

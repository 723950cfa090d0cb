/**
 * Conformance cases for a store's life around its data: durability across close and open,
 * migration from the previous schema version, and failing closed when the backing is gone.
 */
import type { ToolStateStore } from '../tool-state-store'
import { check, checkRecord, rejectionOf } from './conformance-assert'
import { caseScope, createdFrom, refOf } from './conformance-records'
import {
  type StoreConformanceCase,
  type StoreConformanceHarness,
  withStore,
} from './store-conformance-harness'

function durabilityCase(harness: StoreConformanceHarness): StoreConformanceCase {
  return {
    name: 'records and their changes survive close() and a later open()',
    run: async () => {
      const scope = caseScope('durable')
      const kept = scope.record('kept', { data: '{"n":12345678901234567890}' })
      const changed = scope.record('changed')
      await withStore(harness, async (store) => {
        await store.create(kept)
        await store.create(changed)
        await store.update(refOf(changed), 1, {
          state: 'running',
          lease: { owner: 'p1', until: scope.now + 9 },
          updatedAt: scope.now + 1,
        })
      })
      await withStore(harness, async (store) => {
        checkRecord(await store.get(refOf(kept)), createdFrom(kept), 'a created record after reopening')
        checkRecord(
          await store.get(refOf(changed)),
          {
            ...createdFrom(changed),
            state: 'running',
            version: 2,
            lease: { owner: 'p1', until: scope.now + 9 },
            updatedAt: scope.now + 1,
          },
          'an updated record after reopening',
        )
        const listed = await store.list({ kind: 'approval', agent: scope.agent })
        check(listed.length === 2, `list after reopening finds both records, found ${listed.length}`)
      })
    },
  }
}

function migrationCase(
  harness: StoreConformanceHarness,
  seedLegacy: NonNullable<StoreConformanceHarness['seedLegacy']>,
): StoreConformanceCase {
  return {
    name: 'records written in the previous schema version are readable and updatable after open() migrates them',
    run: async () => {
      const scope = caseScope('migration')
      const root = { ...scope.record('third', { state: 'approved' }), agent: '' }
      const records = [
        scope.record('first', { data: '{"n":12345678901234567890,"s":"\\ud800"}' }),
        scope.record('second', { kind: 'result', state: 'stored', data: '"text"', createdAt: scope.now + 1 }),
        root,
      ]
      await seedLegacy(records)
      await withStore(harness, async (store) => {
        for (const record of records) {
          checkRecord(await store.get(refOf(record)), createdFrom(record), `migrated ${record.key}`)
        }
        const leased = await store.update(refOf(root), 1, {
          state: 'running',
          lease: { owner: 'after-migration', until: scope.now + 30_000 },
          updatedAt: scope.now + 2,
        })
        check(
          leased?.version === 2 && leased.lease?.owner === 'after-migration',
          'a migrated record takes a lease',
        )
        const fresh = scope.record('fresh')
        checkRecord(await store.create(fresh), createdFrom(fresh), 'create after migration')
        const listed = await store.list({ kind: 'approval', agent: scope.agent })
        check(
          listed.length === 2,
          `list after migration finds both approvals of the agent, found ${listed.length}`,
        )
      })
    },
  }
}

/** Every method of a store, called once with harmless arguments. */
function everyMethod(store: ToolStateStore): Array<[string, () => Promise<unknown>]> {
  const scope = caseScope('unreachable')
  const record = scope.record('ticket')
  return [
    ['create', () => store.create(record)],
    ['get', () => store.get(refOf(record))],
    ['update', () => store.update(refOf(record), 1, { state: 'approved', updatedAt: scope.now })],
    ['list', () => store.list({ kind: 'approval', agent: scope.agent })],
    ['sweep', () => store.sweep(0)],
  ]
}

function unreachableCase(
  openUnreachable: NonNullable<StoreConformanceHarness['openUnreachable']>,
): StoreConformanceCase {
  return {
    name: 'an unreachable store rejects every method with STORE_UNAVAILABLE naming the store',
    run: async () => {
      const opened = await openUnreachable()
      try {
        const { label } = opened.store
        check(typeof label === 'string' && label.length > 0, 'the store has a label')
        for (const [method, call] of everyMethod(opened.store)) {
          const error = await rejectionOf(call, `${method} on an unreachable store`)
          check(error instanceof Error, `${method} rejects with an Error, got ${String(error)}`)
          const { code } = error as Error & { code?: unknown }
          check(
            code === 'STORE_UNAVAILABLE',
            `${method} rejects with code STORE_UNAVAILABLE, got ${String(code)}`,
          )
          check(
            error.message.includes(label),
            `${method}'s message names the store (${JSON.stringify(label)}): ${error.message}`,
          )
        }
      } finally {
        await opened.close()
      }
    },
  }
}

/** The lifecycle cases of {@link storeConformanceCases}. */
export function lifecycleCases(harness: StoreConformanceHarness): StoreConformanceCase[] {
  const cases: StoreConformanceCase[] = []
  if (harness.durable) cases.push(durabilityCase(harness))
  if (harness.seedLegacy) cases.push(migrationCase(harness, harness.seedLegacy.bind(harness)))
  if (harness.openUnreachable) cases.push(unreachableCase(harness.openUnreachable.bind(harness)))
  return cases
}

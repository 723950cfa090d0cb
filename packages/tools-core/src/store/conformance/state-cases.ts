/**
 * Conformance cases for single-record state: create and get, compare-and-set, the approval
 * chain with its lease, reclaiming a dead lease, and the expiry sweep.
 */
import { check, checkRecord } from './conformance-assert'
import { caseScope, createdFrom, expectationOf, refOf } from './conformance-records'
import {
  type StoreConformanceCase,
  type StoreConformanceHarness,
  withStore,
} from './store-conformance-harness'

/** The state cases of {@link storeConformanceCases}. */
export function stateCases(harness: StoreConformanceHarness): StoreConformanceCase[] {
  return [
    {
      name: 'create returns the stored record at version 1 and a second create at that address returns undefined',
      run: () =>
        withStore(harness, async (store) => {
          const scope = caseScope('create')
          const record = scope.record('ticket')
          checkRecord(await store.create(record), createdFrom(record), 'create')
          checkRecord(await store.get(refOf(record)), createdFrom(record), 'get after create')
          const again = await store.create({ ...record, state: 'approved', data: '{"other":true}' })
          check(again === undefined, 'a second create at the same address must return undefined')
          checkRecord(await store.get(refOf(record)), createdFrom(record), 'get after a refused create')
          check(
            (await store.get(refOf(scope.record('missing')))) === undefined,
            'get of a missing key returns undefined',
          )
          const leased = scope.record('leased', { lease: { owner: 'worker-1', until: scope.now + 5_000 } })
          checkRecord(await store.create(leased), createdFrom(leased), 'create with a lease')
          checkRecord(
            await store.get(refOf(leased)),
            createdFrom(leased),
            'get of a record created with a lease',
          )
        }),
    },
    {
      name: 'compare-and-set applies on the expected version only, increments it and keeps omitted fields',
      run: () =>
        withStore(harness, async (store) => {
          const scope = caseScope('cas')
          const record = scope.record('ticket')
          await store.create(record)
          const ref = refOf(record)
          const first = await store.update(ref, 1, { state: 'approved', updatedAt: scope.now + 1 })
          checkRecord(
            first,
            { ...createdFrom(record), state: 'approved', version: 2, updatedAt: scope.now + 1 },
            'update with omitted data/lease/expiresAt',
          )
          check(
            (await store.update(ref, 1, { state: 'denied', updatedAt: scope.now + 2 })) === undefined,
            'stale version 1 must lose',
          )
          check(
            (await store.update(ref, 3, { state: 'denied', updatedAt: scope.now + 2 })) === undefined,
            'future version 3 must lose',
          )
          check(
            (await store.update(ref, 0, { state: 'denied', updatedAt: scope.now + 2 })) === undefined,
            'version 0 must lose',
          )
          check(first !== undefined, 'the first update applies')
          checkRecord(await store.get(ref), expectationOf(first), 'get after refused updates')
          const second = await store.update(ref, 2, {
            state: 'approved',
            data: '{"decision":"yes"}',
            expiresAt: scope.now + 7,
            lease: { owner: 'a', until: scope.now + 9 },
            updatedAt: scope.now + 3,
          })
          checkRecord(
            second,
            {
              ...createdFrom(record),
              state: 'approved',
              version: 3,
              data: '{"decision":"yes"}',
              expiresAt: scope.now + 7,
              lease: { owner: 'a', until: scope.now + 9 },
              updatedAt: scope.now + 3,
            },
            'update setting every field',
          )
          const third = await store.update(ref, 3, { state: 'approved', updatedAt: scope.now + 4 })
          check(third?.lease?.owner === 'a', 'an omitted lease is kept')
          const cleared = await store.update(ref, 4, {
            state: 'approved',
            lease: null,
            updatedAt: scope.now + 5,
          })
          check(cleared !== undefined && cleared.lease === undefined, '`lease: null` clears the lease')
          check((await store.get(ref))?.lease === undefined, 'a cleared lease stays cleared on get')
          const gone = await store.update(refOf(scope.record('missing')), 1, {
            state: 'x',
            updatedAt: scope.now,
          })
          check(gone === undefined, 'update of a missing record returns undefined')
        }),
    },
    {
      name: 'the approval chain pending → approved → running (lease) → done',
      run: () =>
        withStore(harness, async (store) => {
          const scope = caseScope('chain')
          const record = scope.record('ticket', { data: '{"args":{"path":"a.txt"}}' })
          await store.create(record)
          const ref = refOf(record)
          const approved = await store.update(ref, 1, {
            state: 'approved',
            data: '{"approve":true}',
            updatedAt: scope.now + 1,
          })
          check(approved?.state === 'approved' && approved.version === 2, 'pending → approved')
          const lease = { owner: 'process-1', until: scope.now + 30_000 }
          const running = await store.update(ref, 2, { state: 'running', lease, updatedAt: scope.now + 2 })
          check(
            running?.state === 'running' && running.lease?.owner === 'process-1',
            'approved → running with a lease',
          )
          check(
            (await store.update(ref, 2, {
              state: 'running',
              lease: { owner: 'process-2', until: 1 },
              updatedAt: scope.now + 2,
            })) === undefined,
            'a second claim of the approved version must lose',
          )
          const done = await store.update(ref, 3, {
            state: 'done',
            data: '{"result":{"isError":false}}',
            lease: null,
            updatedAt: scope.now + 3,
          })
          checkRecord(
            done,
            {
              ...createdFrom(record),
              state: 'done',
              version: 4,
              data: '{"result":{"isError":false}}',
              updatedAt: scope.now + 3,
            },
            'running → done',
          )
          check(done !== undefined, 'running → done applies')
          checkRecord(await store.get(ref), expectationOf(done), 'get after done')
        }),
    },
    {
      name: 'an expired lease is reclaimed by compare-and-set, by exactly one of two claimants',
      run: () =>
        withStore(harness, async (store) => {
          const scope = caseScope('reclaim')
          const dead = { owner: 'dead-process', until: scope.now - 1 }
          const record = scope.record('ticket', { state: 'running', lease: dead })
          await store.create(record)
          const seen = await store.get(refOf(record))
          check(seen?.lease !== undefined && seen.lease.until < scope.now, 'the dead lease is readable')
          const claim = (owner: string) =>
            store.update(refOf(record), seen.version, {
              state: 'running',
              lease: { owner, until: scope.now + 30_000 },
              updatedAt: scope.now,
            })
          const [a, b] = await Promise.all([claim('reclaimer-a'), claim('reclaimer-b')])
          check((a === undefined) !== (b === undefined), 'exactly one reclaim must win')
          const winner = (a ?? b)?.lease?.owner
          check((await store.get(refOf(record)))?.lease?.owner === winner, 'the stored lease is the winner’s')
        }),
    },
    {
      name: 'sweep deletes only records whose expiresAt is before now and returns how many',
      run: () =>
        withStore(harness, async (store) => {
          // Times in the first day of 1970: no other case writes them, so the count is exact
          // even when cases share the backing data.
          const scope = caseScope('sweep')
          const old = [1_000, 2_000, 3_000].map((expiresAt, i) =>
            scope.record(`old-${i}`, { createdAt: 500, expiresAt, kind: i === 2 ? 'result' : 'approval' }),
          )
          const atNow = scope.record('at-now', { createdAt: 500, expiresAt: 4_000 })
          const later = scope.record('later', { createdAt: 500, expiresAt: 9_000 })
          for (const record of [...old, atNow, later]) await store.create(record)
          const swept = await store.sweep(4_000)
          check(swept === 3, `sweep(4000) must delete the 3 records expiring before it, deleted ${swept}`)
          for (const record of old)
            check((await store.get(refOf(record))) === undefined, `${record.key} is swept`)
          checkRecord(
            await store.get(refOf(atNow)),
            createdFrom(atNow),
            'a record expiring exactly at now is kept',
          )
          checkRecord(await store.get(refOf(later)), createdFrom(later), 'a later record is kept')
          const again = await store.sweep(4_000)
          check(again === 0, `a second sweep(4000) deletes nothing, deleted ${again}`)
          check((await store.sweep(9_001)) === 2, 'sweep(9001) deletes the two remaining records')
        }),
    },
  ]
}

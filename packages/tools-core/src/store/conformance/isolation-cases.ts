/**
 * Conformance cases for addressing: records of one agent (or kind) are invisible and unchangeable
 * through another's address — including the `''` agent — and addresses holding SQL's special
 * characters are stored and matched literally.
 */
import type { StoredRecordKind } from '../tool-state-store'
import { check, checkRecord } from './conformance-assert'
import { caseScope, createdFrom, elsewhere, refOf, uniqueToken } from './conformance-records'
import {
  type StoreConformanceCase,
  type StoreConformanceHarness,
  withStore,
} from './store-conformance-harness'

/** Key and agent fragments that a store building SQL by hand, or matching with LIKE, gets wrong. */
const AWKWARD = [
  `it's`,
  `say "hi"`,
  '100%',
  '%',
  'a_b',
  '_',
  'back\\slash',
  `'); DROP TABLE records; --`,
  'ключ 🔑',
  ' padded ',
  '\t',
]

/** The isolation cases of {@link storeConformanceCases}. */
export function isolationCases(harness: StoreConformanceHarness): StoreConformanceCase[] {
  return [
    {
      name: 'records are per agent: another agent, the empty agent and another kind see and change nothing',
      run: () =>
        withStore(harness, async (store) => {
          const scope = caseScope('isolation')
          const other = `${scope.agent}-other`
          const record = scope.record('ticket')
          await store.create(record)
          const rootRecord = { ...scope.record('root-ticket'), agent: '' }
          checkRecord(await store.create(rootRecord), createdFrom(rootRecord), "create under agent ''")
          for (const agent of [other, '', scope.agent.toUpperCase(), `${scope.agent} `]) {
            const ref = elsewhere(record, { agent })
            check(
              (await store.get(ref)) === undefined,
              `get through agent ${JSON.stringify(agent)} must see nothing`,
            )
            check(
              (await store.update(ref, 1, { state: 'approved', updatedAt: scope.now })) === undefined,
              `update through agent ${JSON.stringify(agent)} must change nothing`,
            )
            const listed = await store.list({ kind: 'approval', agent })
            check(
              !listed.some((found) => found.key === record.key),
              `list for agent ${JSON.stringify(agent)} must not show it`,
            )
          }
          check(
            (await store.get(elsewhere(rootRecord, { agent: scope.agent }))) === undefined,
            "agent '' is an agent of its own",
          )
          const otherKind: StoredRecordKind = 'outcome'
          check(
            (await store.get(elsewhere(record, { kind: otherKind }))) === undefined,
            'another kind must see nothing',
          )
          check(
            (await store.update(elsewhere(record, { kind: otherKind }), 1, {
              state: 'x',
              updatedAt: scope.now,
            })) === undefined,
            'update through another kind must change nothing',
          )
          checkRecord(await store.get(refOf(record)), createdFrom(record), 'the record after foreign updates')
          const twin = { ...record, agent: other, data: '{"twin":true}' }
          checkRecord(
            await store.create(twin),
            createdFrom(twin),
            'the same key under another agent is a separate record',
          )
          const sibling = { ...record, kind: otherKind, data: '{"sibling":true}' }
          checkRecord(
            await store.create(sibling),
            createdFrom(sibling),
            'the same key under another kind is a separate record',
          )
          checkRecord(
            await store.get(refOf(record)),
            createdFrom(record),
            'the record after its twins were created',
          )
          const listed = await store.list({ kind: 'approval', agent: '' })
          check(
            listed.some((found) => found.key === rootRecord.key) &&
              listed.every((found) => found.agent === ''),
            "list for agent '' shows its records and only its records",
          )
        }),
    },
    {
      name: 'keys and agents holding quotes, %, _, backslashes and unicode are stored and matched literally',
      run: () =>
        withStore(harness, async (store) => {
          const scope = caseScope('escaping')
          const token = uniqueToken()
          for (const [i, awkward] of AWKWARD.entries()) {
            const key = `${awkward}${token}`
            const agent = `${awkward}${token}`
            const record = { ...scope.record('unused'), key, agent, data: `{"i":${i}}` }
            checkRecord(
              await store.create(record),
              createdFrom(record),
              `create key/agent ${JSON.stringify(awkward)}`,
            )
          }
          // `_` and `%` must not act as wildcards: these near misses address nothing.
          for (const miss of [`aXb${token}`, `100X${token}`, `X${token}`, `%${token.slice(1)}`]) {
            check(
              (await store.get({ kind: 'approval', agent: miss, key: miss })) === undefined,
              `get of ${JSON.stringify(miss)} must not match a wildcard`,
            )
            const listed = await store.list({ kind: 'approval', agent: miss })
            check(
              listed.length === 0,
              `list for agent ${JSON.stringify(miss)} must be empty, found ${listed.length}`,
            )
          }
          for (const [i, awkward] of AWKWARD.entries()) {
            const ref = { kind: 'approval' as const, agent: `${awkward}${token}`, key: `${awkward}${token}` }
            const found = await store.get(ref)
            check(
              found?.data === `{"i":${i}}`,
              `get of key/agent ${JSON.stringify(awkward)} returns its own record`,
            )
            const listed = await store.list({ kind: 'approval', agent: ref.agent })
            check(
              listed.length === 1 && listed[0]?.key === ref.key,
              `list for agent ${JSON.stringify(awkward)} returns exactly its record, found ${listed.length}`,
            )
            const updated = await store.update(ref, 1, { state: 'approved', updatedAt: scope.now + 1 })
            check(updated?.version === 2, `update of key/agent ${JSON.stringify(awkward)}`)
          }
        }),
    },
  ]
}

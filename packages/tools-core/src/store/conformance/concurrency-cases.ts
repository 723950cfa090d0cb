/**
 * Conformance case for racing writers: many claims on one version through two independent
 * handles (two connections, as two processes would hold) — exactly one wins.
 */
import type { StoredRecord } from '../tool-state-store'
import { check } from './conformance-assert'
import { caseScope, refOf } from './conformance-records'
import type { StoreConformanceCase, StoreConformanceHarness } from './store-conformance-harness'

/** How many updates race on one version. */
const RACERS = 24

/** The concurrency cases of {@link storeConformanceCases}. */
export function concurrencyCases(harness: StoreConformanceHarness): StoreConformanceCase[] {
  return [
    {
      name: `${RACERS} racing claims on one version through two handles: exactly one wins`,
      run: async () => {
        const [first, second] = [await harness.open(), await harness.open()]
        try {
          const scope = caseScope('race')
          for (const round of [0, 1, 2]) {
            const record = scope.record(`ticket-${round}`, { state: 'approved' })
            check((await first.store.create(record)) !== undefined, 'create the contested record')
            const claims = Array.from({ length: RACERS }, (_, i) =>
              (i % 2 === 0 ? first : second).store.update(refOf(record), 1, {
                state: 'running',
                lease: { owner: `claimant-${i}`, until: scope.now + 30_000 },
                updatedAt: scope.now + i,
              }),
            )
            const won = (await Promise.all(claims)).filter(
              (result): result is StoredRecord => result !== undefined,
            )
            check(won.length === 1, `round ${round}: exactly one claim must win, ${won.length} did`)
            const stored = await second.store.get(refOf(record))
            check(
              stored?.version === 2 && stored.lease?.owner === won[0]?.lease?.owner,
              `round ${round}: the stored record is the winner's (version ${stored?.version}, lease ${stored?.lease?.owner})`,
            )
          }
        } finally {
          await Promise.all([first.close(), second.close()])
        }
      },
    },
  ]
}

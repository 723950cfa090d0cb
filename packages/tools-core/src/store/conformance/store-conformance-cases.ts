/**
 * The store conformance kit (SPEC §13.1): the contract every `ToolStateStore` keeps, as a list of
 * framework-free cases. A store package runs them under its own test runner:
 *
 * ```ts
 * for (const c of storeConformanceCases(harness)) it(c.name, () => c.run())
 * ```
 */
import { concurrencyCases } from './concurrency-cases'
import { isolationCases } from './isolation-cases'
import { lifecycleCases } from './lifecycle-cases'
import { listCases } from './list-cases'
import { losslessCases } from './lossless-cases'
import { stateCases } from './state-cases'
import type { StoreConformanceCase, StoreConformanceHarness } from './store-conformance-harness'

/**
 * The conformance cases for the store `harness` opens: state transitions and compare-and-set,
 * leases, the expiry sweep, per-agent isolation, lossless text, listings, racing claims across
 * two handles, and — when the harness offers them — durability, migration from the previous
 * schema version and failing closed on an unreachable backing. Names are unique; each case
 * throws an `Error` saying which rule broke.
 */
export function storeConformanceCases(harness: StoreConformanceHarness): StoreConformanceCase[] {
  return [
    ...stateCases(harness),
    ...isolationCases(harness),
    ...losslessCases(harness),
    ...listCases(harness),
    ...concurrencyCases(harness),
    ...lifecycleCases(harness),
  ]
}

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { snapshotJsonMeasured, snapshotJsonText } from '../src/index'

const SEED = Number(process.env.FC_SEED ?? 20261201)
const RUNS = Number(process.env.FC_RUNS ?? 400)

/** The outcome of a snapshot function: its snapshot, or the error's class, limit and path. */
function outcome(run: () => { value: unknown; nodes: number; stringLength: number }): unknown {
  try {
    return run()
  } catch (error) {
    const record = error as { name?: string; limit?: string; path?: string }
    return { error: record.name, limit: record.limit, path: record.path }
  }
}

describe('snapshotJsonText agrees with snapshotJsonMeasured of the parsed value', () => {
  it('same value, same size, and the same refusal (class, limit, path) under any budgets, maxDepth included', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 5 }),
        fc.option(fc.integer({ min: 1, max: 60 }), { nil: undefined }),
        fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined }),
        fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }),
        (value, maxNodes, maxStringLength, maxDepth) => {
          const text = JSON.stringify(value)
          const budgets = {
            ...(maxNodes === undefined ? {} : { maxNodes }),
            ...(maxStringLength === undefined ? {} : { maxStringLength }),
            ...(maxDepth === undefined ? {} : { maxDepth }),
          }
          // A fresh parse for the reference, so neither side sees the other's record.
          const expected = outcome(() => snapshotJsonMeasured(JSON.parse(text), budgets))
          expect(outcome(() => snapshotJsonText(text, budgets))).toStrictEqual(expected)
        },
      ),
      { seed: SEED, numRuns: RUNS },
    )
  })
})

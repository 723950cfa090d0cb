import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { JsonBudgetError, snapshotJson, snapshotJsonMeasured } from '../src/index'

/** JSON values with shared references: some members reuse an earlier generated subtree. */
const sharedJson = fc
  .tuple(
    fc.array(fc.jsonValue({ maxDepth: 3 }), { minLength: 1, maxLength: 4 }),
    fc.array(fc.nat(), { maxLength: 12 }),
  )
  .map(([pool, picks]) => {
    const built: unknown[] = [...pool]
    for (const pick of picks) {
      const a = built[pick % built.length]
      const b = built[(pick >> 2) % built.length]
      built.push(pick % 2 === 0 ? [a, b] : { a, b })
    }
    return built[built.length - 1]
  })

/** Independent count of the expanded tree: values and string code units (keys included). */
function expandedSize(value: unknown): { nodes: number; stringLength: number } {
  let nodes = 0
  let stringLength = 0
  const stack = [value]
  while (stack.length > 0) {
    const v = stack.pop()
    nodes++
    if (typeof v === 'string') stringLength += v.length
    else if (Array.isArray(v)) stack.push(...v)
    else if (typeof v === 'object' && v !== null) {
      for (const [key, member] of Object.entries(v)) {
        stringLength += key.length
        stack.push(member)
      }
    }
  }
  return { nodes, stringLength }
}

const SEED = Number(process.env.FC_SEED ?? 20261201)
const RUNS = Number(process.env.FC_RUNS ?? 400)

describe('snapshotJson budget properties', () => {
  it('with budgets large enough, the budgeted snapshot equals the unbudgeted one', () => {
    fc.assert(
      fc.property(sharedJson, (value) => {
        let plain: unknown
        try {
          plain = snapshotJson(value)
        } catch {
          return // lossy (e.g. -0): both must reject, checked below
        }
        const size = expandedSize(value)
        const budgeted = snapshotJsonMeasured(value, {
          maxNodes: size.nodes,
          maxStringLength: size.stringLength,
        })
        expect(budgeted.value).toStrictEqual(plain)
        expect(JSON.stringify(budgeted.value)).toBe(JSON.stringify(value))
        expect({ nodes: budgeted.nodes, stringLength: budgeted.stringLength }).toEqual(size)
      }),
      { seed: SEED, numRuns: RUNS },
    )
  })

  it('one below the expanded size, a budget always fails with JsonBudgetError naming it', () => {
    fc.assert(
      fc.property(sharedJson, (value) => {
        try {
          snapshotJson(value)
        } catch {
          return
        }
        const size = expandedSize(value)
        if (size.nodes > 1) {
          expect(() => snapshotJson(value, { maxNodes: size.nodes - 1 })).toThrow(JsonBudgetError)
        }
        if (size.stringLength > 0) {
          let error: unknown
          try {
            snapshotJson(value, { maxStringLength: size.stringLength - 1 })
          } catch (caught) {
            error = caught
          }
          expect(error).toBeInstanceOf(JsonBudgetError)
          expect((error as JsonBudgetError).limit).toBe('maxStringLength')
        }
      }),
      { seed: SEED, numRuns: RUNS },
    )
  })

  it('omitUndefinedProperties agrees with JSON.stringify on objects with undefined members', () => {
    const withUndefined = fc
      .jsonValue({ maxDepth: 3 })
      .chain((json) =>
        fc
          .dictionary(fc.string(), fc.oneof(fc.constant(undefined), fc.constant(json)))
          .map((o) => ({ o, json })),
      )
    fc.assert(
      fc.property(withUndefined, (value) => {
        let copy: unknown
        try {
          copy = snapshotJson(value, { omitUndefinedProperties: true })
        } catch {
          return
        }
        expect(copy).toStrictEqual(JSON.parse(JSON.stringify(value)))
      }),
      { seed: SEED, numRuns: RUNS },
    )
  })
})

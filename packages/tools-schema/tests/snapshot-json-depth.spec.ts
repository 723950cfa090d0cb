// `maxDepth` bounds how deeply containers nest, in the same one pass that counts nodes and
// string length: a value past it is refused before any deeper member is read.
import { describe, expect, it } from 'vitest'
import { JsonBudgetError, snapshotJson, snapshotJsonMeasured, snapshotJsonText } from '../src/index'

function refusal(run: () => unknown): { limit: string; path: string; max: number } | undefined {
  try {
    run()
    return undefined
  } catch (error) {
    expect(error).toBeInstanceOf(JsonBudgetError)
    const { limit, path, max } = error as JsonBudgetError
    return { limit, path, max }
  }
}

describe('maxDepth', () => {
  it('measures depth as containers nested (a scalar 0, [] 1, [[1]] 2)', () => {
    expect(snapshotJsonMeasured(1).depth).toBe(0)
    expect(snapshotJsonMeasured([]).depth).toBe(1)
    expect(snapshotJsonMeasured({ a: [1, { b: [] }], c: 2 }).depth).toBe(4)
    expect(snapshotJsonText('{"a":[1,{"b":[]}],"c":2}').depth).toBe(4)
  })

  it('refuses the first container past the limit, at its path, from a value and from text', () => {
    const value = { a: [1, { b: [[]] }] }
    const expected = { limit: 'maxDepth', path: '$.a[1].b[0]', max: 4 }
    expect(refusal(() => snapshotJson(value, { maxDepth: 4 }))).toEqual(expected)
    expect(refusal(() => snapshotJsonText(JSON.stringify(value), { maxDepth: 4 }))).toEqual(expected)
    expect(refusal(() => snapshotJson(value, { maxDepth: 5 }))).toBeUndefined()
    expect(refusal(() => snapshotJson(value, { maxDepth: 0 }))).toEqual({
      limit: 'maxDepth',
      path: '$',
      max: 0,
    })
  })

  it('counts a shared subtree at the depth of every place it appears', () => {
    const inner = [[[]]]
    expect(snapshotJsonMeasured([inner, [inner]]).depth).toBe(5)
    expect(refusal(() => snapshotJson([inner, [inner]], { maxDepth: 4 }))).toEqual({
      limit: 'maxDepth',
      path: '$[1][0]',
      max: 4,
    })
  })

  it('checks a snapshot passed again against its recorded depth', () => {
    const snapshot = snapshotJson([[[1]]])
    expect(snapshotJsonMeasured(snapshot).depth).toBe(3)
    expect(refusal(() => snapshotJson(snapshot, { maxDepth: 2 }))?.limit).toBe('maxDepth')
  })

  it('reads 100,000 levels without recursion and refuses them under a limit', () => {
    let deep: unknown = 0
    for (let i = 0; i < 100_000; i++) deep = [deep]
    expect(snapshotJsonMeasured(deep).depth).toBe(100_000)
    expect(refusal(() => snapshotJson(deep, { maxDepth: 64 }))?.path).toBe(`$${'[0]'.repeat(64)}`)
  })

  it('rejects a limit that is not an integer ≥ 0', () => {
    expect(() => snapshotJson(1, { maxDepth: -1 })).toThrow(RangeError)
    expect(() => snapshotJsonText('1', { maxDepth: 1.5 })).toThrow(RangeError)
  })
})

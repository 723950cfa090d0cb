import { describe, expect, it } from 'vitest'
import { JsonBudgetError, LosslessJsonError, snapshotJson, snapshotJsonMeasured } from '../src/index'

function thrown(run: () => unknown): unknown {
  try {
    run()
  } catch (error) {
    return error
  }
  throw new Error('expected a throw')
}

/** `levels` times `v = [v, v]` over `['x']`: tiny to build, 2^(levels+1) values once expanded. */
function dagBomb(levels: number): unknown[] {
  let v: unknown[] = ['x']
  for (let i = 0; i < levels; i++) v = [v, v]
  return v
}

/** Wraps arrays in proxies that count descriptor reads: the work snapshotJson really does. */
function counted(value: unknown[], reads: { n: number }): unknown[] {
  const seen = new Map<object, unknown[]>()
  const wrap = (v: unknown): unknown => {
    if (!Array.isArray(v)) return v
    let proxy = seen.get(v)
    if (proxy === undefined) {
      const target = v.map(wrap)
      proxy = new Proxy(target, {
        getOwnPropertyDescriptor(t, key) {
          reads.n++
          return Reflect.getOwnPropertyDescriptor(t, key)
        },
      })
      seen.set(v, proxy)
    }
    return proxy
  }
  return wrap(value) as unknown[]
}

describe('snapshotJson omitUndefinedProperties', () => {
  it('drops undefined-valued properties at any depth, as JSON.stringify does', () => {
    const input = { s: 'x', n: undefined, deep: [{ a: undefined, b: 1 }, { c: { d: undefined } }] }
    const copy = snapshotJson(input, { omitUndefinedProperties: true })
    expect(copy).toStrictEqual(JSON.parse(JSON.stringify(input)))
    expect(Object.hasOwn(copy as object, 'n')).toBe(false)
  })

  it('keeps rejecting everything else that is lossy', () => {
    const options = { omitUndefinedProperties: true }
    const cases: [unknown, string][] = [
      [{ a: [1, undefined] }, '$.a[1]'],
      [undefined, '$'],
      [{ a: Number.NaN }, '$.a'],
      [{ a: () => 1 }, '$.a'],
      [{ a: new Date(0) }, '$.a'],
      [{ a: new Map() }, '$.a'],
      [{ a: 1n }, '$.a'],
    ]
    for (const [value, path] of cases) {
      const error = thrown(() => snapshotJson(value, options))
      expect(error).toBeInstanceOf(LosslessJsonError)
      expect((error as LosslessJsonError).path).toBe(path)
    }
    const cyclic: Record<string, unknown> = { a: undefined }
    cyclic.self = cyclic
    expect((thrown(() => snapshotJson(cyclic, options)) as LosslessJsonError).path).toBe('$.self')
  })

  it('is off by default: an undefined property is rejected with its path', () => {
    expect((thrown(() => snapshotJson({ s: 'x', n: undefined })) as LosslessJsonError).path).toBe('$.n')
  })
})

describe('snapshotJson budgets', () => {
  it('counts every value and every string code unit, shared references at each occurrence', () => {
    const shared = { key: 'abc' }
    const measured = snapshotJsonMeasured({ a: shared, b: [shared, shared, 1] })
    // root, a, a.key, b, b[0], b[0].key, b[1], b[1].key, b[2]
    expect(measured.nodes).toBe(9)
    // keys a, b, and 3 × (key + 'abc')
    expect(measured.stringLength).toBe(2 + 3 * 6)
  })

  it('a 40-level shared-reference bomb fails on maxNodes after reading only its distinct arrays', () => {
    const reads = { n: 0 }
    const bomb = counted(dagBomb(40), reads)
    const error = thrown(() => snapshotJson({ v: bomb }, { maxNodes: 1_000_000 }))
    expect(error).toBeInstanceOf(JsonBudgetError)
    expect((error as JsonBudgetError).limit).toBe('maxNodes')
    expect((error as JsonBudgetError).max).toBe(1_000_000)
    expect((error as JsonBudgetError).code).toBe('JSON_BUDGET_EXCEEDED')
    expect((error as JsonBudgetError).path).toMatch(/^\$\.v(\[[01]\])+$/)
    expect(reads.n).toBeLessThan(200)
  })

  it('a string repeated through shared references fails on maxStringLength', () => {
    let v: unknown[] = ['x'.repeat(1000)]
    for (let i = 0; i < 30; i++) v = [v, v]
    const error = thrown(() => snapshotJson(v, { maxStringLength: 1_000_000 })) as JsonBudgetError
    expect(error).toBeInstanceOf(JsonBudgetError)
    expect(error.limit).toBe('maxStringLength')
    expect(error.message).toContain('maxStringLength')
  })

  it('refuses an oversized array before reading its elements', () => {
    const reads = { n: 0 }
    const big = counted(new Array(10_000).fill(0), reads)
    const error = thrown(() => snapshotJson(big, { maxNodes: 100 })) as JsonBudgetError
    expect(error.limit).toBe('maxNodes')
    expect(error.path).toBe('$')
    expect(reads.n).toBe(0)
  })

  it('counts object keys against maxStringLength', () => {
    const error = thrown(() =>
      snapshotJson({ ['k'.repeat(50)]: 1 }, { maxStringLength: 49 }),
    ) as JsonBudgetError
    expect(error.limit).toBe('maxStringLength')
    expect(snapshotJson({ ['k'.repeat(50)]: 1 }, { maxStringLength: 50 })).toEqual({ ['k'.repeat(50)]: 1 })
  })

  it('a value exactly at the budget passes, one more value fails', () => {
    expect(snapshotJsonMeasured([1, 2, 3], { maxNodes: 4 }).nodes).toBe(4)
    expect(thrown(() => snapshotJson([1, 2, 3], { maxNodes: 3 }))).toBeInstanceOf(JsonBudgetError)
  })

  it('a returned snapshot re-checked under a smaller budget fails, with its recorded size', () => {
    const snapshot = snapshotJson(dagBomb(10))
    expect(snapshotJsonMeasured(snapshot).nodes).toBe(2 ** 11 + 2 ** 10 - 1)
    expect(thrown(() => snapshotJson(snapshot, { maxNodes: 100 }))).toBeInstanceOf(JsonBudgetError)
  })

  it('rejects budgets that are not integers in range', () => {
    for (const maxNodes of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(thrown(() => snapshotJson(1, { maxNodes }))).toBeInstanceOf(RangeError)
    }
    expect(thrown(() => snapshotJson('', { maxStringLength: -1 }))).toBeInstanceOf(RangeError)
    expect(snapshotJson('', { maxStringLength: 0 })).toBe('')
  })

  it('a deep chain is counted without recursion', () => {
    let deep: unknown = 0
    for (let i = 0; i < 10_000; i++) deep = [deep]
    expect(snapshotJsonMeasured(deep, { maxNodes: 10_001 }).nodes).toBe(10_001)
    expect((thrown(() => snapshotJson(deep, { maxNodes: 10_000 })) as JsonBudgetError).limit).toBe('maxNodes')
  })
})

import { describe, expect, it } from 'vitest'
import { JsonBudgetError, LosslessJsonError, snapshotJson, snapshotJsonText } from '../src/index'

function isDeepFrozen(value: unknown): boolean {
  const stack = [value]
  while (stack.length > 0) {
    const v = stack.pop()
    if (typeof v !== 'object' || v === null) continue
    if (!Object.isFrozen(v)) return false
    stack.push(...Object.values(v))
  }
  return true
}

function thrown(run: () => unknown): unknown {
  try {
    run()
  } catch (error) {
    return error
  }
  throw new Error('expected a throw')
}

describe('snapshotJsonText', () => {
  it('returns the parsed value deep-frozen, with the size snapshotJsonMeasured counts', () => {
    const snapshot = snapshotJsonText('{"a":[1,"xy",{"b":null}],"cd":true}')
    expect(snapshot.value).toStrictEqual({ a: [1, 'xy', { b: null }], cd: true })
    expect(isDeepFrozen(snapshot.value)).toBe(true)
    // values: object, array, 1, "xy", object, null, true = 7; string units: a, xy, b, cd = 6
    expect(snapshot).toMatchObject({ nodes: 7, stringLength: 6 })
  })

  it('records the root, so a later snapshotJson returns it as is', () => {
    const { value } = snapshotJsonText('{"k":[1,2,3]}')
    expect(snapshotJson(value)).toBe(value)
  })

  it('reads scalars and containers at the root', () => {
    expect(snapshotJsonText('"hi"')).toStrictEqual({ value: 'hi', nodes: 1, stringLength: 2, depth: 0 })
    expect(snapshotJsonText('null')).toStrictEqual({ value: null, nodes: 1, stringLength: 0, depth: 0 })
    expect(snapshotJsonText('[]')).toStrictEqual({ value: [], nodes: 1, stringLength: 0, depth: 1 })
  })

  it('keeps an own `__proto__` key as data, never as the prototype', () => {
    const { value } = snapshotJsonText('{"__proto__":{"polluted":1}}')
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
    expect(Object.keys(value as object)).toEqual(['__proto__'])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('refuses the lossy numbers JSON text can produce, at their path', () => {
    for (const [text, path] of [
      ['-0', '$'],
      ['{"a":[0,-0]}', '$.a[1]'],
      ['{"big":1e400}', '$.big'],
      ['[-1e999]', '$[0]'],
    ] as const) {
      const error = thrown(() => snapshotJsonText(text))
      expect(error, text).toBeInstanceOf(LosslessJsonError)
      expect((error as LosslessJsonError).path, text).toBe(path)
    }
  })

  it('refuses text that is not JSON as a LosslessJsonError at the root', () => {
    for (const text of ['', '{', '{"a":1} x', 'undefined', "{'a':1}", 'NaN']) {
      const error = thrown(() => snapshotJsonText(text))
      expect(error, text).toBeInstanceOf(LosslessJsonError)
      expect((error as LosslessJsonError).path).toBe('$')
    }
  })

  it('stops counting at the budgets, naming the limit and the path', () => {
    const nodes = thrown(() => snapshotJsonText('{"a":[1,2,3,4]}', { maxNodes: 4 })) as JsonBudgetError
    expect(nodes).toBeInstanceOf(JsonBudgetError)
    expect(nodes).toMatchObject({ limit: 'maxNodes', path: '$.a' })
    const units = thrown(() =>
      snapshotJsonText('{"a":"x","b":["yyyy"]}', { maxStringLength: 4 }),
    ) as JsonBudgetError
    expect(units).toMatchObject({ limit: 'maxStringLength', path: '$.b[0]' })
  })

  it('accepts a value exactly at its budgets', () => {
    expect(snapshotJsonText('[["ab"],"c"]', { maxNodes: 4, maxStringLength: 3 }).nodes).toBe(4)
  })

  it('rejects budgets that are not integers in range', () => {
    expect(() => snapshotJsonText('1', { maxNodes: 0 })).toThrow(RangeError)
    expect(() => snapshotJsonText('1', { maxStringLength: 1.5 })).toThrow(RangeError)
  })

  it('reads nesting far deeper than the call stack without recursion', () => {
    const depth = 200_000
    const snapshot = snapshotJsonText(`${'['.repeat(depth)}"x"${']'.repeat(depth)}`)
    expect(snapshot.nodes).toBe(depth + 1)
    const refused = thrown(() =>
      snapshotJsonText(`${'['.repeat(depth)}1${']'.repeat(depth)}`, { maxNodes: 1_000 }),
    ) as JsonBudgetError
    expect(refused.limit).toBe('maxNodes')
    expect(refused.path).toBe(`$${'[0]'.repeat(999)}`)
  })
})

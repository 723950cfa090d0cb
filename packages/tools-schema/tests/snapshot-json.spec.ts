import { describe, expect, it } from 'vitest'
import { LosslessJsonError, snapshotJson } from '../src/index'

function rejection(value: unknown): LosslessJsonError {
  try {
    snapshotJson(value)
  } catch (error) {
    expect(error).toBeInstanceOf(LosslessJsonError)
    return error as LosslessJsonError
  }
  throw new Error('expected snapshotJson to throw')
}

describe('snapshotJson', () => {
  it('returns an equal, deep-frozen copy', () => {
    const input = { a: [1, 'x', null, true, { b: 2.5 }], c: {} }
    const copy = snapshotJson(input) as typeof input
    expect(copy).toEqual(input)
    expect(copy).not.toBe(input)
    expect(copy.a).not.toBe(input.a)
    expect(Object.isFrozen(copy)).toBe(true)
    expect(Object.isFrozen(copy.a)).toBe(true)
    expect(Object.isFrozen(copy.a[4])).toBe(true)
  })

  it('accepts scalars at the root', () => {
    for (const value of [null, true, 0, 'x', 1.5]) expect(snapshotJson(value)).toBe(value)
  })

  it.each([
    ['undefined', { a: undefined }, '$.a'],
    ['a function', { a: [() => 1] }, '$.a[0]'],
    ['a symbol', { a: Symbol('x') }, '$.a'],
    ['a BigInt', { a: 1n }, '$.a'],
    ['NaN', [Number.NaN], '$[0]'],
    ['Infinity', { x: { y: Number.POSITIVE_INFINITY } }, '$.x.y'],
    ['-Infinity', { x: Number.NEGATIVE_INFINITY }, '$.x'],
    ['-0', { 'a b': -0 }, '$["a b"]'],
    ['a Date', { d: new Date(0) }, '$.d'],
    ['a Map', { m: new Map() }, '$.m'],
    ['a typed array', { t: new Uint8Array(2) }, '$.t'],
    ['a boxed primitive', { s: new String('x') }, '$.s'],
    ['a class instance', { c: new (class Point {})() }, '$.c'],
  ])('rejects %s with its path', (_name, value, path) => {
    expect(rejection(value).path).toBe(path)
  })

  it('rejects undefined at the root with path $', () => {
    expect(rejection(undefined).path).toBe('$')
  })

  it('rejects cycles', () => {
    const value: Record<string, unknown> = { a: { b: [] } }
    ;((value.a as { b: unknown[] }).b as unknown[]).push(value)
    expect(rejection(value).path).toBe('$.a.b[0]')
  })

  it('copies a shared non-cyclic reference once and shares its frozen copy', () => {
    const shared = { x: 1 }
    const copy = snapshotJson({ a: shared, b: [shared, shared] }) as { a: object; b: object[] }
    expect(copy).toEqual({ a: { x: 1 }, b: [{ x: 1 }, { x: 1 }] })
    expect(copy.a).not.toBe(shared)
    expect(copy.b[0]).toBe(copy.a)
    expect(Object.isFrozen(copy.a)).toBe(true)
  })

  it('rejects sparse arrays at the hole', () => {
    // biome-ignore lint/suspicious/noSparseArray: the hole is the point
    expect(rejection({ a: [1, , 3] }).path).toBe('$.a[1]')
  })

  it('rejects arrays carrying extra properties', () => {
    const array = Object.assign([1], { extra: true })
    expect(rejection(array).path).toBe('$')
  })

  it('rejects accessor properties without invoking the getter', () => {
    let called = false
    const value = {
      get secret() {
        called = true
        return 1
      },
    }
    expect(rejection(value).path).toBe('$.secret')
    expect(called).toBe(false)
  })

  it('rejects symbol keys', () => {
    expect(() => snapshotJson({ [Symbol('k')]: 1 })).toThrow(LosslessJsonError)
    expect(rejection({ a: { ok: 1, [Symbol('k')]: 1 } })).toMatchObject({
      path: '$.a',
      message: expect.stringContaining('symbol key Symbol(k)'),
    })
    // also non-enumerable symbol keys, and on a null-prototype object
    const hidden = Object.defineProperty(Object.create(null), Symbol('h'), { value: 1, enumerable: false })
    expect(rejection(hidden).message).toContain('symbol key Symbol(h)')
  })

  it('reports a string key’s problem before a symbol key, whatever the definition order', () => {
    const value = { [Symbol('first')]: 1 } as Record<string | symbol, unknown>
    Object.defineProperty(value, 'later', { value: 1, enumerable: false })
    expect(rejection(value).path).toBe('$.later')
    const accessor = {
      [Symbol('s')]: 1,
      get g() {
        return 1
      },
    }
    expect(rejection(accessor).path).toBe('$.g')
  })

  it('rejects non-enumerable properties', () => {
    const value = Object.defineProperty({}, 'hidden', { value: 1, enumerable: false })
    expect(rejection(value).path).toBe('$.hidden')
  })

  it('accepts null-prototype objects and copies them as plain objects', () => {
    const value = Object.create(null) as Record<string, unknown>
    value.a = 1
    expect(snapshotJson(value)).toEqual({ a: 1 })
  })

  it('keeps a "__proto__" own key as data', () => {
    const value = JSON.parse('{"__proto__": {"x": 1}}') as object
    const copy = snapshotJson(value) as Record<string, unknown>
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype)
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).toEqual({ x: 1 })
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"x":1}}')
  })

  it('returns a snapshot it made as is, and copies anything else', () => {
    const snapshot = snapshotJson({ a: [1, { b: 'c' }] })
    expect(snapshotJson(snapshot)).toBe(snapshot)
    const lookalike = Object.freeze({ a: 1 })
    expect(snapshotJson(lookalike)).not.toBe(lookalike)
  })

  it('a returned snapshot looks exactly like a plain frozen value to every reflective API', () => {
    for (const input of [{ a: 1, b: ['x'] }, [1, { c: null }], {}]) {
      const snapshot = snapshotJson(input)
      const plain = Object.freeze(structuredClone(input))
      expect(Reflect.ownKeys(snapshot as object)).toEqual(Reflect.ownKeys(plain))
      expect(Object.getOwnPropertyDescriptors(snapshot)).toEqual(Object.getOwnPropertyDescriptors(plain))
      expect(Object.getPrototypeOf(snapshot)).toBe(Object.getPrototypeOf(plain))
      expect(JSON.stringify(snapshot)).toBe(JSON.stringify(input))
      expect(structuredClone(snapshot)).toStrictEqual(structuredClone(input))
      expect(Object.isFrozen(snapshot)).toBe(true)
    }
  })

  it('recognises only the snapshot itself: nested members, proxies and copies of it are copied', () => {
    const snapshot = snapshotJson({ inner: { a: 1 } }) as { inner: object }
    expect(snapshotJson(snapshot)).toBe(snapshot)
    expect(snapshotJson(snapshot.inner)).not.toBe(snapshot.inner)
    expect(snapshotJson(snapshot.inner)).toEqual({ a: 1 })
    const proxy = new Proxy(snapshot, {})
    expect(snapshotJson(proxy)).not.toBe(proxy)
    expect(snapshotJson(proxy)).toEqual(snapshot)
    const spread = { ...snapshot }
    expect(snapshotJson(spread)).not.toBe(spread)
  })

  it('names the full path of a problem deep inside nested containers', () => {
    const value = { outer: [{ 'odd key': [0, { leaf: Number.NaN }] }] }
    expect(() => snapshotJson(value)).toThrow(
      expect.objectContaining({ path: '$.outer[0]["odd key"][1].leaf' }),
    )
  })

  it('preserves key order', () => {
    expect(Object.keys(snapshotJson({ b: 1, a: 2, c: 3 }) as object)).toEqual(['b', 'a', 'c'])
  })

  it('error is a ToolsError with code LOSSY_JSON', () => {
    const error = rejection({ a: undefined })
    expect(error.code).toBe('LOSSY_JSON')
    expect(error.name).toBe('LosslessJsonError')
    expect(error.message).toContain('$.a')
  })
})

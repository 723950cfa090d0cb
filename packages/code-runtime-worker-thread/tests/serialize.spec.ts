/**
 * The guests' strict serializer (`src/worker/quickjs/guest/serialize.ts`, shared by both
 * engines' kernels), run here in Node: accepted values come out exactly as `JSON.stringify`
 * writes them, whatever their size, depth or keys; refusals name the problem and its path; each
 * property is read once; cycles are found at any depth while shared references pass.
 */
import { describe, expect, it } from 'vitest'
import { serialize } from '../src/worker/quickjs/guest/serialize'

/** A small seeded generator (mulberry32), so a failure names a reproducible case. */
function random(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const STRINGS = [
  '',
  'plain',
  'quote " and \\ backslash',
  'line\nbreak\ttab',
  '\u2028\u2029',
  'ünï 😀',
  '\u0000\u001f',
  '__proto__',
  'constructor',
  'a b',
]
const NUMBERS = [0, -0, 1, -1, 0.1, 1e21, 1e-7, 5e-324, Number.MAX_SAFE_INTEGER, -123.456]

function jsonValue(next: () => number, depth: number): unknown {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T
  const kind = depth > 4 ? Math.floor(next() * 4) : Math.floor(next() * 7)
  switch (kind) {
    case 0:
      return pick(STRINGS)
    case 1:
      return pick(NUMBERS)
    case 2:
      return next() < 0.5
    case 3:
      return null
    case 4:
      return Array.from({ length: Math.floor(next() * 5) }, () => jsonValue(next, depth + 1))
    case 5: {
      const object: Record<string, unknown> = {}
      // Defined, not assigned: a `__proto__` key is then an own property, not the prototype.
      for (let i = Math.floor(next() * 5); i > 0; i--) {
        const value = {
          value: jsonValue(next, depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        }
        Object.defineProperty(object, pick(STRINGS) + pick(['', 'x', '1']), value)
      }
      // Undefined-valued properties are omitted, as JSON.stringify does.
      if (next() < 0.3) object['skipped'] = undefined
      return object
    }
    default: {
      const object = Object.create(null) as Record<string, unknown>
      const value = {
        value: jsonValue(next, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      }
      return Object.defineProperty(object, pick(STRINGS), value)
    }
  }
}

describe('serialize', () => {
  it('writes exactly what JSON.stringify writes for 2,000 seeded JSON values', () => {
    const next = random(10)
    for (let i = 0; i < 2_000; i++) {
      const value = jsonValue(next, 0)
      expect(serialize(value, 'r'), `case ${i}`).toBe(JSON.stringify(value))
    }
  })

  it('writes large results (past the chunk length) and many or long keys the same way', () => {
    const rows = Array.from({ length: 5_000 }, (_, i) => ({
      id: i,
      name: `row ${i} "quoted"`,
      tags: ['a', 'b'],
    }))
    expect(serialize({ rows }, 'r')).toBe(JSON.stringify({ rows }))
    const keys: Record<string, number> = {}
    for (let i = 0; i < 1_000; i++) keys[`key-${i}-${'"'.repeat(i % 3)}${'k'.repeat(i % 90)}`] = i
    // Twice: the second pass reads remembered keys.
    expect(serialize(keys, 'r')).toBe(JSON.stringify(keys))
    expect(serialize(keys, 'r')).toBe(JSON.stringify(keys))
  })

  it('handles values nested 10,000 levels deep without recursion', () => {
    let array: unknown = 1
    let object: unknown = 'leaf'
    for (let i = 0; i < 10_000; i++) {
      array = [array]
      object = { k: object }
    }
    // Node's own JSON.stringify recurses and cannot write these: the expected text is built.
    expect(serialize(array, 'r')).toBe(`${'['.repeat(10_000)}1${']'.repeat(10_000)}`)
    expect(serialize(object, 'r')).toBe(`${'{"k":'.repeat(10_000)}"leaf"${'}'.repeat(10_000)}`)
  })

  it('refuses a cycle at any depth, and passes a shared reference at any depth', () => {
    const shallow: Record<string, unknown> = { a: 1 }
    shallow['self'] = shallow
    expect(serialize(shallow, 'r')).toEqual({ invalid: 'r: a cycle at $.self' })
    for (const depth of [1, 15, 16, 17, 40, 3_000]) {
      const root: Record<string, unknown> = {}
      let node = root
      for (let i = 0; i < depth; i++) node = node['n'] = {} as Record<string, unknown>
      const shared = { s: [1] }
      node['x'] = shared
      node['y'] = [shared, shared]
      expect(serialize(root, 'r'), `shared at ${depth}`).toBe(JSON.stringify(root))
      node['back'] = root
      const refused = serialize(root, 'r') as { invalid: string }
      expect(refused.invalid, `cycle at ${depth}`).toBe(`r: a cycle at $${'.n'.repeat(depth)}.back`)
    }
  })

  it('names every problem and its path', () => {
    const holey = [1, 2, 3]
    delete holey[1]
    const cases: [unknown, string][] = [
      [undefined, 'undefined at $'],
      [Number.NaN, 'a non-finite number at $'],
      [10n, 'a BigInt at $'],
      [Symbol('s'), 'a symbol at $'],
      [() => 1, 'a function at $'],
      [new Map(), 'a non-plain object at $'],
      [{ a: { b: [0, Number.POSITIVE_INFINITY] } }, 'a non-finite number at $.a.b[1]'],
      [{ 'not an identifier': [undefined] }, 'undefined at $["not an identifier"][0]'],
      [[{ d: new Date(0) }], 'a non-plain object at $[0].d'],
      [{ list: holey }, 'an array hole at $.list[1]'],
      [{ f() {} }, 'a function at $.f'],
      [[1, 2, [3, 4n]], 'a BigInt at $[2][1]'],
    ]
    for (const [value, problem] of cases)
      expect(serialize(value, 'arguments for t are not JSON')).toEqual({
        invalid: `arguments for t are not JSON: ${problem}`,
      })
  })

  it('reads each property once, in order, and stops at the first refusal', () => {
    const reads: string[] = []
    const value = {
      get a() {
        reads.push('a')
        return {
          get b() {
            reads.push('b')
            return 1
          },
        }
      },
      get c() {
        reads.push('c')
        return () => 0
      },
      get d() {
        reads.push('d')
        return 2
      },
    }
    expect(serialize(value, 'r')).toEqual({ invalid: 'r: a function at $.c' })
    expect(reads).toEqual(['a', 'b', 'c'])
  })

  it('hands a root object over from its flat fast path at any key without reading a property twice', () => {
    // The root object's primitive values are written by a fast path that passes the walk on at
    // its first object value: try that hand-over at every position, with skipped keys around it.
    for (let at = 0; at < 5; at++) {
      const reads: string[] = []
      const root: Record<string, unknown> = {}
      const nested = { n: [1, { m: 'x' }] }
      for (let i = 0; i < 5; i++) {
        const value = i === at ? nested : i % 2 === 0 ? `s${i}` : i === 3 ? undefined : i
        Object.defineProperty(root, `k${i}`, {
          enumerable: true,
          get() {
            reads.push(`k${i}`)
            return value
          },
        })
      }
      const expected = JSON.stringify(Object.fromEntries(Object.keys(root).map((k) => [k, root[k]])))
      reads.length = 0
      expect(serialize(root, 'r'), `object at k${at}`).toBe(expected)
      expect(reads).toEqual(['k0', 'k1', 'k2', 'k3', 'k4'])

      const self: Record<string, unknown> = { a: 1, b: 'two' }
      self[`c${at}`] = at % 2 === 0 ? self : [self]
      self['z'] = () => 0
      const path = at % 2 === 0 ? `$.c${at}` : `$.c${at}[0]`
      expect(serialize(self, 'r'), `cycle at c${at}`).toEqual({ invalid: `r: a cycle at ${path}` })

      const refused: Record<string, unknown> = { a: 1, b: undefined }
      refused[`bad key ${at}`] = 10n
      expect(serialize(refused, 'r')).toEqual({ invalid: `r: a BigInt at $["bad key ${at}"]` })
    }
  })
})

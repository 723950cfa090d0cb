import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  compileJsonSchemaValidator,
  compileParameterSpecValidator,
  compileValueSpecValidator,
  type JsonValue,
  type SchemaValidator,
  validateArgs,
  validateJsonSchemaValue,
} from '../src/index'
import { setFastChecksEnabled } from '../src/internal/jit-checker'
import { STACK_SAFE_DEPTH } from './fixtures/stack-depth'

const ANY_JSON: JsonValue[] = [
  'x',
  '',
  0,
  -0,
  2.5,
  -1e308,
  true,
  false,
  null,
  [],
  [1, [2, [3]]],
  {},
  { a: { b: [null] } },
]

class Point {
  x = 1
}
function sparse(): unknown[] {
  const array = [1, 2, 3]
  delete array[1]
  return array
}
function withAccessor(counter: { reads: number }): object {
  const object = { a: 1 }
  Object.defineProperty(object, 'b', {
    enumerable: true,
    get: () => {
      counter.reads++
      return 2
    },
  })
  return object
}
function cyclic(): object {
  const object: Record<string, unknown> = { a: [] }
  ;(object.a as unknown[]).push(object)
  return object
}
class MyArray extends Array<number> {}

/** Values that are not JSON, each with a name; `reads` counts accessor invocations. */
function nonJson(counter: { reads: number }): [string, unknown][] {
  return [
    ['Map', new Map([[1, 2]])],
    ['Set', new Set([1])],
    ['Date', new Date(0)],
    ['class instance', new Point()],
    ['Uint8Array', new Uint8Array(3)],
    ['Float64Array', new Float64Array(1)],
    ['ArrayBuffer', new ArrayBuffer(1)],
    ['RegExp', /x/],
    ['Error', new Error('x')],
    ['boxed string', new String('x')],
    ['Promise', Promise.resolve(1)],
    ['function', () => 1],
    ['undefined', undefined],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['-Infinity', Number.NEGATIVE_INFINITY],
    ['symbol', Symbol('s')],
    ['BigInt', 10n],
    ['sparse array', sparse()],
    ['array subclass', MyArray.from([1])],
    ['array with extra key', Object.assign([1], { extra: true })],
    ['accessor property', withAccessor(counter)],
    ['symbol key', { [Symbol('k')]: 1 }],
    ['non-enumerable key', Object.defineProperty({}, 'hidden', { value: 1, enumerable: false })],
    ['cycle', cyclic()],
  ]
}

/** Positions under an any-JSON node where a non-JSON value is placed. */
const placements: [string, (bad: unknown) => unknown, string][] = [
  ['root', (bad) => bad, '$'],
  ['in an array', (bad) => [1, bad], '$[1]'],
  ['in an object', (bad) => ({ ok: 1, bad }), '$.bad'],
  ['three levels down', (bad) => ({ a: [{ b: [bad] }] }), '$.a[0].b[0]'],
]

/** Every entry point that can express "any JSON" at the root. */
function entryPoints(): [string, SchemaValidator][] {
  return [
    ['compileJsonSchemaValidator({})', compileJsonSchemaValidator({})],
    ['compileJsonSchemaValidator({ description })', compileJsonSchemaValidator({ description: 'x' })],
    ['validateJsonSchemaValue({ title })', (value) => validateJsonSchemaValue({ title: 't' }, value)],
    ['compileValueSpecValidator({ type: json })', compileValueSpecValidator({ type: 'json' })],
    [
      'compileValueSpecValidator(array without items)',
      (value) =>
        compileValueSpecValidator({ type: 'array' })([value]).map((v) => ({
          ...v,
          path: v.path.replace('$[0]', '$'),
        })),
    ],
  ]
}

describe.each([
  ['generated checks', true],
  ['interpreter', false],
])('any-JSON nodes (%s)', (_mode, fast) => {
  beforeAll(() => setFastChecksEnabled(fast))
  afterAll(() => setFastChecksEnabled(true))

  it.each(entryPoints())('%s accepts every JSON value', (_name, check) => {
    for (const value of ANY_JSON) expect(check(value)).toEqual([])
  })

  it('parameter and object fields of type json accept every JSON value', () => {
    const params = compileParameterSpecValidator({ v: { type: 'json', required: true } })
    const object = compileJsonSchemaValidator({ type: 'object', properties: { v: {} }, required: ['v'] })
    for (const value of ANY_JSON) {
      expect(params({ v: value })).toEqual([])
      expect(validateArgs({ v: { type: 'json' } }, { v: value })).toEqual([])
      expect(object({ v: value })).toEqual([])
    }
  })

  it('the annotation-only issue example reports a violation', () => {
    expect(validateJsonSchemaValue({ description: 'x' }, new Map())).toEqual([
      { path: '$', message: 'expected JSON value, got a Map' },
    ])
  })

  it.each(entryPoints())('%s rejects what is not JSON, at any depth, at its path', (_name, check) => {
    const counter = { reads: 0 }
    for (const [label, bad] of nonJson(counter)) {
      for (const [where, place, path] of placements) {
        const violations = check(place(bad))
        expect(violations, `${label} ${where}`).toHaveLength(1)
        expect(violations[0]!.path.startsWith(path), `${label} ${where}: ${violations[0]!.path}`).toBe(true)
        expect(violations[0]!.message).toMatch(/^expected JSON value, got /)
      }
    }
    expect(counter.reads).toBe(0)
  })

  it('open objects check their undeclared members; item-less arrays their items', () => {
    const counter = { reads: 0 }
    const open = compileJsonSchemaValidator({ type: 'object', properties: { a: { type: 'string' } } })
    const openSpec = compileValueSpecValidator({ type: 'object', additionalProperties: true })
    const params = compileParameterSpecValidator({ a: { type: 'string' } })
    const list = compileJsonSchemaValidator({ type: 'array' })
    for (const [label, bad] of nonJson(counter)) {
      expect(open({ a: 'x', extra: { deep: bad } }), label).toHaveLength(1)
      expect(openSpec({ extra: [bad] }), label).toHaveLength(1)
      expect(params({ extra: bad }), label).toHaveLength(1)
      expect(list([[bad]]), label).toHaveLength(1)
    }
    expect(counter.reads).toBe(0)
  })

  it('objects must be plain: a Map or class instance is not an object', () => {
    const object = compileJsonSchemaValidator({ type: 'object' })
    expect(object(new Map())).toEqual([{ path: '$', message: 'expected object, got Map' }])
    expect(object(new Point())).toEqual([{ path: '$', message: 'expected object, got class instance' }])
    expect(object(Object.create(null))).toEqual([])
  })

  it('a shared-reference DAG costs its distinct nodes, not its paths', () => {
    let value: unknown = ['x']
    for (let i = 0; i < 60; i++) value = [value, value]
    expect(compileJsonSchemaValidator({})(value)).toEqual([])
    expect(compileJsonSchemaValidator({ type: 'array' })(value)).toEqual([])
  })

  // STACK_SAFE_DEPTH outnests any recursion per level (100 000 under DSH_LONG=1).
  it(`is stack-safe for ${STACK_SAFE_DEPTH} levels of nesting`, () => {
    let value: unknown = 1
    for (let i = 0; i < STACK_SAFE_DEPTH; i++) value = { a: [value] }
    expect(compileJsonSchemaValidator({})(value)).toEqual([])
    let bad: unknown = new Set()
    for (let i = 0; i < STACK_SAFE_DEPTH; i++) bad = [bad]
    expect(compileJsonSchemaValidator({})(bad)).toHaveLength(1)
  })
})

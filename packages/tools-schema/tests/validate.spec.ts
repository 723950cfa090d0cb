import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  compileParameterSpecValidator,
  type JsonSchemaNode,
  type ParameterSchemaSpec,
  UnsupportedJsonSchemaError,
  validateArgs,
  validateJsonSchemaValue,
  valueSchemaSpecToJsonSchema,
} from '../src/index'
import { setFastChecksEnabled } from '../src/internal/jit-checker'

const spec = {
  name: { type: 'string', required: true },
  mode: { type: 'string', enum: ['a', 'b'] },
  count: { type: 'integer' },
  ratio: { type: 'number' },
  flag: { type: 'boolean' },
  nothing: { type: 'null' },
  items: {
    type: 'array',
    items: {
      type: 'object',
      properties: { name: { type: 'string', required: true }, 'x y': { type: 'number' } },
      additionalProperties: false,
    },
  },
  extra: { type: 'object', additionalProperties: true, properties: { a: { type: 'string' } } },
  empty: { type: 'object', additionalProperties: false },
  pick: { oneOf: [{ type: 'string' }, { type: 'integer' }, { type: 'number', const: 1.5 }] },
  any: { type: 'json' },
} as const satisfies ParameterSchemaSpec

// Every rule runs twice: with generated fast checks and with the pure explicit-stack interpreter.
describe.each([
  ['generated checks', true],
  ['interpreter', false],
])('validation (%s)', (_mode, fast) => {
  beforeAll(() => setFastChecksEnabled(fast))
  afterAll(() => setFastChecksEnabled(true))
  const check = (value: unknown) => compileParameterSpecValidator(spec)(value)

  it('accepts a valid value with no violations', () => {
    expect(check({ name: 'x', mode: 'a', count: 2, items: [{ name: 'n', 'x y': 1 }], pick: 'z' })).toEqual([])
  })

  it('implicit parameter root is open: extra keys are accepted', () => {
    expect(check({ name: 'x', unknownKey: 1 })).toEqual([])
  })

  it('reports missing required properties at the object path', () => {
    expect(check({})).toEqual([{ path: '$', message: 'missing required property "name"' }])
  })

  it('reports type mismatches with expected/got messages', () => {
    expect(check({ name: 1 })).toEqual([{ path: '$.name', message: 'expected string, got number' }])
    expect(check({ name: 'x', flag: 'yes' })).toEqual([
      { path: '$.flag', message: 'expected boolean, got string' },
    ])
    expect(check({ name: 'x', nothing: 0 })).toEqual([
      { path: '$.nothing', message: 'expected null, got number' },
    ])
    expect(check({ name: 'x', items: {} })).toEqual([
      { path: '$.items', message: 'expected array, got object' },
    ])
    expect(check({ name: 'x', extra: [] })).toEqual([
      { path: '$.extra', message: 'expected object, got array' },
    ])
    expect(check(null)).toEqual([{ path: '$', message: 'expected object, got null' }])
  })

  it('integer means Number.isInteger', () => {
    expect(check({ name: 'x', count: 2.0 })).toEqual([])
    expect(check({ name: 'x', count: 2.5 })).toEqual([
      { path: '$.count', message: 'expected integer, got number 2.5' },
    ])
  })

  it('number rejects NaN and Infinity', () => {
    expect(check({ name: 'x', ratio: Number.NaN })).toEqual([
      { path: '$.ratio', message: 'expected number, got NaN' },
    ])
    expect(check({ name: 'x', ratio: Number.POSITIVE_INFINITY })).toHaveLength(1)
  })

  it('enum violations list the allowed members', () => {
    expect(check({ name: 'x', mode: 'c' })).toEqual([{ path: '$.mode', message: 'expected one of "a", "b"' }])
  })

  it('explicit closed objects reject extra keys', () => {
    expect(check({ name: 'x', items: [{ name: 'n', other: 1 }] })).toEqual([
      { path: '$.items[0].other', message: 'unexpected property "other"' },
    ])
  })

  it('explicit open objects accept extra keys only with additionalProperties: true', () => {
    expect(check({ name: 'x', extra: { a: 'x', b: 2 } })).toEqual([])
  })

  it('a closed object with no properties accepts only {}', () => {
    expect(check({ name: 'x', empty: {} })).toEqual([])
    expect(check({ name: 'x', empty: { a: 1 } })).toEqual([
      { path: '$.empty.a', message: 'unexpected property "a"' },
    ])
  })

  it('quotes exotic keys and indexes arrays in paths', () => {
    expect(check({ name: 'x', items: [{ name: 'ok' }, { name: 2, 'x y': 'no' }] })).toEqual([
      { path: '$.items[1].name', message: 'expected string, got number' },
      { path: '$.items[1]["x y"]', message: 'expected number, got string' },
    ])
  })

  it('oneOf requires exactly one matching branch', () => {
    expect(check({ name: 'x', pick: 3 })).toEqual([])
    const none = check({ name: 'x', pick: true })
    expect(none).toHaveLength(1)
    expect(none[0]!.path).toBe('$.pick')
    expect(none[0]!.message).toMatch(/^expected exactly one of 3 oneOf branches to match, got none/)
    expect(none[0]!.message).toContain('branch 0: $.pick expected string, got boolean')
  })

  it('oneOf reports when more than one branch matches', () => {
    const schema = valueSchemaSpecToJsonSchema({ oneOf: [{ type: 'number' }, { type: 'integer' }] })
    expect(validateJsonSchemaValue(schema, 2.5)).toEqual([])
    expect(validateJsonSchemaValue(schema, 2)).toEqual([
      { path: '$', message: 'expected exactly one of 2 oneOf branches to match, got 2 (branches 0, 1)' },
    ])
  })

  it('json accepts any JSON value but not undefined or functions', () => {
    expect(check({ name: 'x', any: { deep: [1, null] } })).toEqual([])
    expect(check({ name: 'x', any: () => 1 })).toEqual([
      { path: '$.any', message: 'expected JSON value, got function' },
    ])
  })

  it('an explicitly undefined property is a type violation, not a missing one', () => {
    expect(check({ name: undefined })).toEqual([
      { path: '$.name', message: 'expected string, got undefined' },
    ])
  })

  it('a "__proto__" key is read as an own property only', () => {
    const node = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"]}',
    )
    expect(validateJsonSchemaValue(node, {})).toEqual([
      { path: '$', message: 'missing required property "__proto__"' },
    ])
    expect(validateJsonSchemaValue(node, JSON.parse('{"__proto__":"x"}'))).toEqual([])
    expect(validateJsonSchemaValue(node, JSON.parse('{"__proto__":1}'))).toEqual([
      { path: '$.__proto__', message: 'expected string, got number' },
    ])
  })

  it('collects every violation, not just the first', () => {
    expect(check({ name: 1, mode: 'z', count: 'x' })).toHaveLength(3)
  })

  it('does not apply defaults', () => {
    const node: JsonSchemaNode = { type: 'object', properties: { a: { type: 'string', default: 'x' } } }
    const value = {}
    expect(validateJsonSchemaValue(node, value)).toEqual([])
    expect(value).toEqual({})
  })
})

describe('raw JSON Schema objects', () => {
  it('are open unless additionalProperties: false', () => {
    const open: JsonSchemaNode = { type: 'object', properties: { a: { type: 'string' } } }
    const closed: JsonSchemaNode = { ...open, additionalProperties: false }
    expect(validateJsonSchemaValue(open, { a: 'x', b: 1 })).toEqual([])
    expect(validateJsonSchemaValue(closed, { a: 'x', b: 1 })).toEqual([
      { path: '$.b', message: 'unexpected property "b"' },
    ])
  })

  it('annotation-only {} accepts any JSON value', () => {
    for (const value of [null, 1, 'x', [1], { a: {} }]) expect(validateJsonSchemaValue({}, value)).toEqual([])
  })

  it('enum without a type checks membership only', () => {
    expect(validateJsonSchemaValue({ enum: [1, 'a', null] }, 'a')).toEqual([])
    expect(validateJsonSchemaValue({ enum: [1, 'a', null] }, 2)).toEqual([
      { path: '$', message: 'expected one of 1, "a", null' },
    ])
  })

  it('const violations name the constant', () => {
    expect(validateJsonSchemaValue({ type: 'string', const: 'a' }, 'b')).toEqual([
      { path: '$', message: 'expected constant "a"' },
    ])
  })

  it('unsupported schemas throw UnsupportedJsonSchemaError', () => {
    expect(() => validateJsonSchemaValue({ anyOf: [] } as JsonSchemaNode, 1)).toThrow(
      UnsupportedJsonSchemaError,
    )
  })
})

describe('validateArgs', () => {
  it('takes a ParameterSchemaSpec; the compiled node goes through validateJsonSchemaValue', () => {
    const node = valueSchemaSpecToJsonSchema({
      type: 'object',
      properties: { a: { type: 'string', required: true } },
      additionalProperties: false,
    })
    expect(validateArgs({ a: { type: 'string', required: true } }, {})).toEqual([
      { path: '$', message: 'missing required property "a"' },
    ])
    expect(validateJsonSchemaValue(node, {})).toEqual([
      { path: '$', message: 'missing required property "a"' },
    ])
    expect(validateJsonSchemaValue(node, { a: 'x', b: 1 })).toEqual([
      { path: '$.b', message: 'unexpected property "b"' },
    ])
  })

  it('enforces a required empty-string property name (ajv 8 ignores it; JSON Schema does not)', () => {
    expect(validateArgs({ '': { type: 'number', required: true } }, {})).toEqual([
      { path: '$', message: 'missing required property ""' },
    ])
    expect(validateArgs({ '': { type: 'number', required: true } }, { '': 1 })).toEqual([])
  })

  it('an empty parameter spec accepts any object', () => {
    expect(validateArgs({}, { anything: 1 })).toEqual([])
    expect(validateArgs({}, 'x')).toEqual([{ path: '$', message: 'expected object, got string' }])
  })

  it('returns a fresh array on every call', () => {
    const schema = { a: { type: 'string' } } as const
    const first = validateArgs(schema, { a: 1 })
    first.length = 0
    expect(validateArgs(schema, { a: 1 })).toHaveLength(1)
  })

  it('large enums and many keys use set-based checks correctly', () => {
    const members = Array.from({ length: 20 }, (_, i) => `m${i}`)
    const properties = Object.fromEntries(members.map((m) => [m, { type: 'string', enum: members } as const]))
    const node = valueSchemaSpecToJsonSchema({ type: 'object', properties, additionalProperties: false })
    expect(validateJsonSchemaValue(node, { m3: 'm19', m4: 'm1' })).toEqual([])
    expect(validateJsonSchemaValue(node, { m3: 'zz', q: 1 })).toEqual([
      { path: '$.m3', message: `expected one of ${members.map((m) => `"${m}"`).join(', ')}` },
      { path: '$.q', message: 'unexpected property "q"' },
    ])
  })
})

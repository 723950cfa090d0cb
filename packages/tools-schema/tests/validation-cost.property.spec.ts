// Validation costs a bounded multiple of reading the value, for any schema the gate accepts.
// The cost is observed deterministically: the value is wrapped in proxies that count every
// read the validator makes (member reads, key listings, descriptors, prototype checks), and
// the count must stay within a constant factor of the value's size (plus a constant) across
// adversarial families: uniqueItems at every level of a recursion, allOf/anyOf/oneOf/if whose
// branches revisit the same value (2^depth paths), enum of containers at every level, huge key
// counts, patternProperties × many keys. Both the generated check and the interpreter (its
// fallback and explainer) are measured. Nested-quantifier patterns are bounded by time.
import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { compileJsonSchemaValidator, type JsonSchema } from '../src/index'
import { setFastChecksEnabled } from '../src/internal/jit-checker'

// Every family is its own test, so a smaller seeded sample per family keeps each one covered;
// `DSH_LONG=1` (or DSH_COST_RUNS) samples more.
const RUNS = Number(process.env.DSH_COST_RUNS ?? (process.env.DSH_LONG === '1' ? 60 : 20))
const SEED = Number(process.env.FC_SEED ?? 21)

let reads = 0
/** Counts one read, then performs it. */
function read<T>(value: T): T {
  reads++
  return value
}
const counting: ProxyHandler<object> = {
  get: (target, key, receiver) => read(Reflect.get(target, key, receiver)),
  has: (target, key) => read(Reflect.has(target, key)),
  ownKeys: (target) => read(Reflect.ownKeys(target)),
  getOwnPropertyDescriptor: (target, key) => read(Reflect.getOwnPropertyDescriptor(target, key)),
  getPrototypeOf: (target) => read(Reflect.getPrototypeOf(target)),
}

/** A copy of a JSON value whose every container counts reads; also returns its value count. */
function counted(value: unknown): { value: unknown; nodes: number } {
  let nodes = 0
  const wrap = (v: unknown): unknown => {
    nodes++
    if (typeof v !== 'object' || v === null) return v
    if (Array.isArray(v)) return new Proxy(v.map(wrap), counting)
    const out: Record<string, unknown> = {}
    for (const [key, member] of Object.entries(v)) out[key] = wrap(member)
    return new Proxy(out, counting)
  }
  return { value: wrap(value), nodes }
}

// A constant factor per value and a constant: the interpreter's step budget is linear
// (100,000 + 32 per value), each step a handful of reads.
const PER_VALUE = 400
const CONSTANT = 1_500_000

function readsOf(schema: JsonSchema, value: unknown): { reads: number; nodes: number } {
  const validate = compileJsonSchemaValidator(schema)
  const input = counted(value)
  reads = 0
  validate(input.value)
  return { reads, nodes: input.nodes }
}

const ref = { $ref: '#/$defs/s' }
const recursive: Record<string, JsonSchema> = {
  'uniqueItems at every level': {
    $defs: { s: { type: 'array', uniqueItems: true, items: { anyOf: [{ type: 'integer' }, ref] } } },
    ...ref,
  },
  'allOf of the same recursion twice': {
    $defs: {
      s: { allOf: [{ $ref: '#/$defs/t' }, { $ref: '#/$defs/t' }] },
      t: { anyOf: [{ type: 'integer' }, { type: 'array', items: ref }] },
    },
    ...ref,
  },
  'anyOf whose first branch fails late': {
    $defs: {
      s: {
        anyOf: [
          { type: 'array', items: ref, contains: { type: 'string' } },
          { type: 'array', items: ref },
          { type: 'integer' },
        ],
      },
    },
    ...ref,
  },
  'oneOf of two branches that both match': {
    $defs: {
      s: {
        oneOf: [
          { type: 'array', items: ref },
          { type: 'array', items: ref, minItems: 0 },
          { type: 'integer' },
        ],
      },
    },
    ...ref,
  },
  'enum of containers at every level': {
    $defs: {
      s: { anyOf: [{ enum: [[1, 2], [[]], { a: 1 }] }, { type: 'array', items: ref }, { type: 'integer' }] },
    },
    ...ref,
  },
  'if / then / else / not over the same recursion': {
    $defs: {
      s: {
        if: { $ref: '#/$defs/t' },
        // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword
        then: { $ref: '#/$defs/t' },
        else: { not: { $ref: '#/$defs/t' } },
      },
      t: { anyOf: [{ type: 'integer' }, { type: 'array', items: ref }] },
    },
    ...ref,
  },
}

/** A spine of nested arrays, `depth` deep, with a few integers (possibly repeated) per level. */
const spine = fc
  .array(fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 3 }), { minLength: 1, maxLength: 60 })
  .map((levels) => {
    let value: unknown = levels[0]!
    for (const level of levels.slice(1)) value = [...level, value, [...level]]
    return value
  })

const keyed = fc
  .tuple(fc.integer({ min: 1, max: 20_000 }), fc.constantFrom('k', 'a', 'x'))
  .map(([count, letter]) => {
    const out: Record<string, number> = {}
    for (let i = 0; i < count; i++) out[i % 3 === 0 ? letter.repeat(1 + (i % 40)) : `${letter}${i}`] = i
    return out
  })

const objectSchemas: JsonSchema[] = [
  {
    type: 'object',
    patternProperties: { '^(a+)+$': { type: 'integer' }, '^(k|kk)+[0-9]*$': { type: 'integer' } },
    propertyNames: { pattern: '^(x|xx|a|k)+[0-9]*$' },
  },
  { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
  { type: 'object', additionalProperties: { type: 'integer', maximum: 10 } },
  {
    type: 'object',
    patternProperties: { '^(a|aa)+$': { type: 'string' } },
    additionalProperties: { $ref: '#' },
  },
]

afterEach(() => setFastChecksEnabled(true))

describe.each([
  ['generated check', true],
  ['interpreter only', false],
])('validation reads the value a bounded number of times (%s)', (_, fast) => {
  it.each(Object.entries(recursive))('%s', (_name, schema) => {
    setFastChecksEnabled(fast)
    fc.assert(
      fc.property(spine, (value) => {
        const { reads: count, nodes } = readsOf(schema, value)
        expect(count).toBeLessThanOrEqual(PER_VALUE * nodes + CONSTANT)
      }),
      { numRuns: RUNS, seed: SEED },
    )
  })

  it('huge key counts × patternProperties, propertyNames and closed objects', () => {
    setFastChecksEnabled(fast)
    fc.assert(
      fc.property(fc.constantFrom(...objectSchemas), keyed, (schema, value) => {
        const { reads: count, nodes } = readsOf(schema, value)
        expect(count).toBeLessThanOrEqual(PER_VALUE * nodes + CONSTANT)
      }),
      { numRuns: Math.ceil(RUNS / 3), seed: SEED },
    )
  })
})

describe('a 40-level spine against the doubling schemas stays near a linear scan', () => {
  // 2^40 paths without the memo: far past any bound; with it, a few reads per value.
  it.each(Object.entries(recursive))('%s', (_name, schema) => {
    let value: unknown = [1]
    for (let level = 0; level < 40; level++) value = [level, value]
    const { reads: count, nodes } = readsOf(schema, value)
    expect(count).toBeLessThanOrEqual(PER_VALUE * nodes + CONSTANT)
  })
})

describe('canonical forms are computed once per value, not once per enclosing level', () => {
  // Comparing items by re-reading each subtree at every level of a 3,000-deep spine costs
  // depth × size (millions of reads); canonical tokens read each container once.
  it.each([
    ['uniqueItems at every level', recursive['uniqueItems at every level']!],
    ['enum of containers at every level', recursive['enum of containers at every level']!],
  ])('%s', (_name, schema) => {
    // Built already wrapped: `counted` recurses, and this spine is deeper than the stack allows.
    let value: unknown = new Proxy([1], counting)
    for (let level = 0; level < 3000; level++) value = new Proxy([level, value], counting)
    const nodes = 2 + 2 * 3000
    const validate = compileJsonSchemaValidator(schema)
    reads = 0
    expect(validate(value)).toEqual([])
    expect(reads).toBeLessThanOrEqual(PER_VALUE * nodes + CONSTANT)
  })
})

describe('nested-quantifier patterns cost one pass over the string', () => {
  const patterns = [
    '^(a+)+$',
    '^(a|aa)+$',
    '^(a|a?)+$',
    '^(\\w+\\s?)*$',
    '^([a-z]+)*[0-9]$',
    '(x+x+)+y',
    '^(a*)*b$',
  ]
  it('generated near-matches of up to 50,000 characters answer within a generous bound', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...patterns),
        fc.integer({ min: 20, max: 50_000 }),
        fc.constantFrom('a', 'x', 'ab'),
        (pattern, length, unit) => {
          const validate = compileJsonSchemaValidator({ type: 'string', pattern })
          const started = performance.now()
          validate(`${unit.repeat(length)}!`)
          // A backtracking engine needs ~10 s at 28 characters for the first pattern.
          expect(performance.now() - started).toBeLessThan(1000)
        },
      ),
      { numRuns: RUNS, seed: SEED },
    )
  })
})

// The generated check runs a discriminated union's single tagged branch, stops a oneOf of
// disjoint types at its first match and a general oneOf at its second. These shortcuts must
// never change a result: generated tagged unions (overlapping tags, enum tags, tags behind $ref
// and allOf, branches that do not demand an object, missing tags) are checked against the
// interpreter on any value and against ajv on JSON values. DSH_DIFF_RUNS scales the run.
import { Ajv2020 } from 'ajv/dist/2020'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { compileJsonSchemaValidator, type JsonSchema } from '../src/index'
import { compileSchema } from '../src/internal/compile-schema'
import { setFastChecksEnabled } from '../src/internal/jit-checker'
import { findDiscriminator } from '../src/internal/union-dispatch'

const SCHEMAS = Number(process.env.DSH_DIFF_RUNS ?? 200)
const SEED = Number(process.env.DSH_DIFF_SEED ?? 20261201)

// Tags that collide under one equality and not another: 0 / -0 / "0", true / "true", null.
const TAGS = ['a', 'b', 'c', '0', 0, -0, 1, true, 'true', null]
const tag = fc.constantFrom(...TAGS)

// Mostly well-formed tagged unions (so the shortcut is taken), with every way to spoil one.
const tagSchema = fc.oneof(
  { arbitrary: fc.record({ const: tag }), weight: 6 },
  {
    arbitrary: fc.record({
      enum: fc.uniqueArray(tag, { minLength: 1, maxLength: 2, comparator: 'SameValueZero' }),
    }),
    weight: 2,
  },
  { arbitrary: fc.constant({ type: 'string' }), weight: 1 },
)

const plainBranch = fc
  .record({
    type: fc.constantFrom('object', 'object', 'object', 'object', 'object', undefined, ['object', 'null']),
    tag: tagSchema,
    extra: fc.constantFrom('x', 'y'),
    requireTag: fc.constantFrom(true, true, true, true, false),
    closed: fc.boolean(),
  })
  .map(({ type, tag, extra, requireTag, closed }) => ({
    ...(type === undefined ? {} : { type }),
    properties: { kind: tag, [extra]: { type: 'string' } },
    required: requireTag ? ['kind', extra] : [extra],
    ...(closed ? { additionalProperties: false } : {}),
  }))

/** A branch as written, behind `$ref`, or inside `allOf`. */
const branch = fc.tuple(plainBranch, fc.constantFrom('inline', 'ref', 'allOf'))

const unionSchema = fc
  .tuple(fc.constantFrom('anyOf', 'oneOf'), fc.array(branch, { minLength: 2, maxLength: 3 }))
  .map(([keyword, branches]) => {
    const $defs: Record<string, unknown> = {}
    const members = branches.map(([body, how], i) => {
      if (how === 'inline') return body
      $defs[`b${i}`] = body
      return how === 'ref' ? { $ref: `#/$defs/b${i}` } : { allOf: [{ $ref: `#/$defs/b${i}` }] }
    })
    return { $defs, type: 'array', items: { [keyword]: members } } as JsonSchema
  })

const member = fc.oneof(
  fc.record(
    { kind: tag, x: fc.constantFrom('s', 1), y: fc.constantFrom('s', 1), z: fc.constant(true) },
    { requiredKeys: [] },
  ),
  fc.constantFrom(null, 'a', 0, [], ['a']),
)

class Tagged {
  kind = 'a'
  x = 's'
}

/** Non-JSON members the interpreter must agree on (ajv is not asked about them). */
const hostile = [new Tagged(), Object.assign(Object.create(null), { kind: 'a', x: 's' }), new Map()]

describe('union dispatch', { timeout: 600_000 }, () => {
  afterAll(() => setFastChecksEnabled(true))

  it('never changes a result: generated tagged unions against the interpreter and ajv', () => {
    const ajv = new Ajv2020({ strict: false, ownProperties: true })
    const disagreements: string[] = []
    let pairs = 0
    let dispatched = 0
    fc.assert(
      fc.property(
        unionSchema,
        fc.array(fc.array(member, { maxLength: 3 }), { minLength: 20, maxLength: 20 }),
        (schema, values) => {
          setFastChecksEnabled(true)
          const fast = compileJsonSchemaValidator(schema)
          setFastChecksEnabled(false)
          const slow = compileJsonSchemaValidator(schema)
          setFastChecksEnabled(true)
          const oracle = ajv.compile(schema as object)
          const union = compileSchema(schema, {}).root.items!
          if (findDiscriminator(union.anyOf.length > 0 ? union.anyOf : union.oneOf) !== undefined)
            dispatched++
          for (const value of [...values, ...hostile.map((item) => [item])]) {
            pairs++
            const ours = fast(value)
            expect(ours).toEqual(slow(value))
            const json = !value.some((item) => hostile.includes(item))
            if (json && (ours.length === 0) !== oracle(value))
              disagreements.push(`${JSON.stringify(schema)} ${JSON.stringify(value)}`)
          }
        },
      ),
      { seed: SEED, numRuns: SCHEMAS },
    )
    expect(disagreements).toEqual([])
    expect(pairs).toBeGreaterThanOrEqual(SCHEMAS * 20)
    // The shortcut under test is taken often enough to matter (and not always).
    expect(dispatched).toBeGreaterThan(SCHEMAS / 10)
    expect(dispatched).toBeLessThan(SCHEMAS)
  })
})

/** A plain-object view of `target` that counts reads of each key. */
function counted(target: Record<string, unknown>, reads: Map<string, number>): Record<string, unknown> {
  return new Proxy(target, {
    get(object, key, receiver) {
      if (typeof key === 'string') reads.set(key, (reads.get(key) ?? 0) + 1)
      return Reflect.get(object, key, receiver)
    },
  })
}

describe('union branches tried', () => {
  const tagged = (kinds: string[]): JsonSchema => ({
    oneOf: kinds.map((kind) => ({
      type: 'object',
      properties: { kind: { const: kind }, [`only_${kind}`]: { type: 'string' } },
      required: ['kind'],
    })),
  })

  it('a discriminated union reads only the branch its tag names, however many there are', () => {
    const kinds = Array.from({ length: 12 }, (_, i) => `k${i}`)
    const check = compileJsonSchemaValidator(tagged(kinds))
    const reads = new Map<string, number>()
    expect(check(counted({ kind: 'k11', only_k11: 'x' }, reads))).toEqual([])
    // One read to dispatch, one by the chosen branch; no other branch's members are looked at.
    expect(reads.get('kind')).toBe(2)
    expect([...reads.keys()].filter((key) => key.startsWith('only_'))).toEqual(['only_k11'])
  })

  it('a general oneOf stops at the second match', () => {
    const check = compileJsonSchemaValidator({
      oneOf: [
        { type: 'object', properties: { a: { type: 'string' } } },
        { type: 'object', properties: { b: { type: 'string' } } },
        { type: 'object', properties: { c: { type: 'string' } } },
      ],
    })
    const reads = new Map<string, number>()
    setFastChecksEnabled(true)
    // Both first branches match: invalid before the third branch reads `c` (the interpreter,
    // which explains the failure afterwards, reads through descriptors, not `get`).
    expect(check(counted({ a: 'x', b: 'y', c: 'z' }, reads))).toHaveLength(1)
    expect(reads.has('c')).toBe(false)
  })
})

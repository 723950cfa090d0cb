import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import {
  compileJsonSchemaValidator,
  type JsonSchemaNode,
  type JsonValue,
  type ParameterFieldSpec,
  type ValueSchemaSpec,
  valueSchemaSpecToJsonSchema,
} from '../src/index'
import { setFastChecksEnabled } from '../src/internal/jit-checker'

/** Random DSL specs without oneOf (oneOf is covered by the value/mutation rules separately). */
const specArbitrary: fc.Arbitrary<ValueSchemaSpec> = fc.letrec<{ spec: ValueSchemaSpec }>((tie) => ({
  spec: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant<ValueSchemaSpec>({ type: 'string' }),
    fc.constant<ValueSchemaSpec>({ type: 'number' }),
    fc.constant<ValueSchemaSpec>({ type: 'integer' }),
    fc.constant<ValueSchemaSpec>({ type: 'boolean' }),
    fc.constant<ValueSchemaSpec>({ type: 'null' }),
    fc.constant<ValueSchemaSpec>({ type: 'json' }),
    fc
      .uniqueArray(fc.string({ maxLength: 3 }), { minLength: 1, maxLength: 4 })
      .map<ValueSchemaSpec>((members) => ({
        type: 'string',
        enum: members,
      })),
    tie('spec').map<ValueSchemaSpec>((items) => ({ type: 'array', items })),
    fc
      .record({
        fields: fc.dictionary(
          fc.string({ minLength: 1, maxLength: 4 }).filter((key) => key !== '__proto__'),
          fc.record({ spec: tie('spec'), required: fc.boolean() }),
          { maxKeys: 4 },
        ),
        additionalProperties: fc.boolean(),
      })
      .map<ValueSchemaSpec>(({ fields, additionalProperties }) => ({
        type: 'object',
        additionalProperties,
        properties: Object.fromEntries(
          Object.entries(fields).map(([key, { spec, required }]) => [
            key,
            { ...spec, required } as ParameterFieldSpec,
          ]),
        ),
      })),
    fc.constant<ValueSchemaSpec>({ oneOf: [{ type: 'string' }, { type: 'integer' }] }),
  ),
})).spec

/** A value generator for a compiled node. */
function valueFor(node: JsonSchemaNode): fc.Arbitrary<JsonValue> {
  if (node.oneOf !== undefined) return fc.oneof(fc.string(), fc.integer())
  if (node.enum !== undefined) return fc.constantFrom(...node.enum)
  switch (node.type) {
    case 'string':
      return fc.string()
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n))
    case 'integer':
      return fc.integer()
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'array':
      return fc.array(
        node.items === undefined ? (fc.jsonValue() as fc.Arbitrary<JsonValue>) : valueFor(node.items),
        {
          maxLength: 3,
        },
      )
    case 'object': {
      const properties = node.properties ?? {}
      const required = new Set(node.required ?? [])
      const model: Record<string, fc.Arbitrary<JsonValue>> = {}
      for (const [key, child] of Object.entries(properties)) model[key] = valueFor(child)
      return fc.record(model, { requiredKeys: [...required] }) as fc.Arbitrary<JsonValue>
    }
    default:
      return fc.jsonValue() as fc.Arbitrary<JsonValue>
  }
}

/** Paths (as key lists) inside `value` whose schema node has a concrete, non-oneOf type. */
function typedSites(node: JsonSchemaNode, value: JsonValue): { keys: (string | number)[]; type: string }[] {
  const sites: { keys: (string | number)[]; type: string }[] = []
  const stack: { node: JsonSchemaNode; value: JsonValue; keys: (string | number)[] }[] = [
    { node, value, keys: [] },
  ]
  while (stack.length > 0) {
    const { node: current, value: v, keys } = stack.pop()!
    if (current.type === undefined || current.oneOf !== undefined) continue
    sites.push({ keys, type: current.type })
    if (current.type === 'array' && current.items !== undefined && Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) stack.push({ node: current.items, value: v[i]!, keys: [...keys, i] })
    }
    if (current.type === 'object' && typeof v === 'object' && v !== null && !Array.isArray(v)) {
      for (const [key, child] of Object.entries(current.properties ?? {})) {
        if (Object.hasOwn(v, key)) stack.push({ node: child, value: v[key]!, keys: [...keys, key] })
      }
    }
  }
  return sites
}

function formatKeys(keys: readonly (string | number)[]): string {
  return `$${keys.map((key) => (typeof key === 'number' ? `[${key}]` : /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`)).join('')}`
}

function replaceAt(value: JsonValue, keys: readonly (string | number)[], replacement: unknown): unknown {
  if (keys.length === 0) return replacement
  const copy = structuredClone(value) as Record<string | number, unknown>
  let cursor = copy
  for (let i = 0; i < keys.length - 1; i++) cursor = cursor[keys[i]!] as Record<string | number, unknown>
  cursor[keys[keys.length - 1]!] = replacement
  return copy
}

/** A replacement that is never of the given JSON Schema type. */
function wrongValueFor(type: string): unknown {
  return type === 'string' ? 42 : type === 'object' ? ['not', 'an', 'object'] : 'wrong'
}

const withValue = specArbitrary.chain((spec) => {
  const node = valueSchemaSpecToJsonSchema(spec)
  return fc.record({ node: fc.constant(node), value: valueFor(node) })
})

describe.each([
  ['generated checks', true],
  ['interpreter', false],
])('validation properties (%s)', (_mode, fast) => {
  afterAll(() => setFastChecksEnabled(true))

  it('any value generated from a schema validates against it', () => {
    setFastChecksEnabled(fast)
    fc.assert(
      fc.property(withValue, ({ node, value }) => {
        expect(compileJsonSchemaValidator(node)(value)).toEqual([])
      }),
      { numRuns: 300 },
    )
  })

  it('a mutated value yields at least one violation at the mutated path', () => {
    setFastChecksEnabled(fast)
    fc.assert(
      fc.property(withValue, fc.nat(), ({ node, value }, pick) => {
        const sites = typedSites(node, value)
        const site = sites[pick % sites.length]
        if (site === undefined) return
        const mutated = replaceAt(value, site.keys, wrongValueFor(site.type))
        const violations = compileJsonSchemaValidator(node)(mutated)
        expect(violations.map((violation) => violation.path)).toContain(formatKeys(site.keys))
      }),
      { numRuns: 300 },
    )
  })
})

describe('generated checks and the interpreter agree', () => {
  afterAll(() => setFastChecksEnabled(true))

  it('report identical violations for arbitrary JSON inputs', () => {
    fc.assert(
      fc.property(specArbitrary, fc.jsonValue(), (spec, value) => {
        const node = valueSchemaSpecToJsonSchema(spec)
        setFastChecksEnabled(true)
        const generated = compileJsonSchemaValidator(node)(value)
        setFastChecksEnabled(false)
        const interpreted = compileJsonSchemaValidator(node)(value)
        setFastChecksEnabled(true)
        expect(generated).toEqual(interpreted)
      }),
      { numRuns: 500 },
    )
  })
})

/** Leaves no JSON value can be: the validator must refuse each one wherever it appears. */
const nonJsonLeaf: fc.Arbitrary<unknown> = fc
  .constantFrom<() => unknown>(
    () => new Map(),
    () => new Set([1]),
    () => new Date(0),
    () => new Uint8Array(2),
    () => undefined,
    () => Number.NaN,
    () => Number.NEGATIVE_INFINITY,
    () => 1n,
    () => Symbol('s'),
    () => () => 1,
    // biome-ignore lint/suspicious/noSparseArray: a hole is the non-JSON case under test
    () => [1, , 3],
    () => ({ [Symbol('k')]: 1 }),
    () => Object.defineProperty({}, 'g', { enumerable: true, get: () => 1 }),
  )
  .map((make) => make())

/** Leaves a typed object site does not look into: an accessor member, a symbol key. */
function isUncheckedAtTypedSite(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false
  return (
    Object.getOwnPropertyDescriptor(value, 'g')?.get !== undefined ||
    Object.getOwnPropertySymbols(value).length > 0
  )
}

/** JSON with non-JSON leaves mixed in at any depth. */
const mixedValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue({ maxDepth: 2 }),
    nonJsonLeaf,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 3 }), tie('value'), { maxKeys: 3 }),
  ),
})).value

// A schema-shaped value with one typed-or-not site replaced by a non-JSON leaf.
// Accessors and symbol keys are left out here: a typed object's declared members are read as
// ordinary properties and its symbol keys are not looked at (see README); under any-JSON nodes
// and among an open object's undeclared members both are violations (any-json.spec.ts).
const nearValueWithNonJson = fc
  .tuple(
    withValue,
    fc.nat(),
    nonJsonLeaf.filter((leaf) => !isUncheckedAtTypedSite(leaf)),
  )
  .map(([{ node, value }, pick, leaf]) => {
    const sites = [{ keys: [] as (string | number)[] }, ...typedSites(node, value)]
    return { node, value: replaceAt(value, sites[pick % sites.length]!.keys, leaf) }
  })

describe('generated checks and the interpreter agree on non-JSON input', () => {
  afterAll(() => setFastChecksEnabled(true))

  const compare = (node: JsonSchemaNode, value: unknown) => {
    setFastChecksEnabled(true)
    const generated = compileJsonSchemaValidator(node)(value)
    setFastChecksEnabled(false)
    const interpreted = compileJsonSchemaValidator(node)(value)
    setFastChecksEnabled(true)
    expect(generated).toEqual(interpreted)
    return generated
  }

  it('for arbitrary values with non-JSON parts', () => {
    fc.assert(
      fc.property(specArbitrary, mixedValue, (spec, value) => {
        compare(valueSchemaSpecToJsonSchema(spec), value)
      }),
      { numRuns: 500 },
    )
  })

  it('for schema-shaped values with a non-JSON part, which is always a violation', () => {
    fc.assert(
      fc.property(nearValueWithNonJson, ({ node, value }) => {
        expect(compare(node, value).length).toBeGreaterThan(0)
      }),
      { numRuns: 500 },
    )
  })
})

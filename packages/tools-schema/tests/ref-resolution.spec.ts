// `$ref` resolves by URI (src/internal/resolve-ref.ts): every `$id` starts a schema resource with
// its own base, refs resolve against the base where they stand, anchors belong to a resource.
// Both paths (generated checks and interpreter) see the same node graph; both are run.
import { afterAll, describe, expect, it } from 'vitest'
import {
  checkGeminiSchema,
  checkOpenAiStrictSchema,
  compileJsonSchemaValidator,
  type JsonSchema,
  jsonSchemaToTs,
  providerArgsToCanonical,
  toProviderSchema,
} from '../src/index'
import { setFastChecksEnabled } from '../src/internal/jit-checker'
import { rootPointerRefs } from '../src/internal/root-pointer-refs'

const D7 = 'http://json-schema.org/draft-07/schema#'

const cases: [string, unknown, unknown[], unknown[]][] = [
  [
    'a relative $ref names a nested resource',
    {
      $id: 'http://example.com/root.json',
      $defs: { A: { $id: 'nested.json', type: 'integer' } },
      $ref: 'nested.json',
    },
    [1],
    ['a'],
  ],
  [
    '$id resolves against the nearest enclosing resource, not the root',
    {
      $id: 'http://example.com/a.json',
      $defs: {
        x: { $id: 'http://example.com/b/c.json', not: { $defs: { y: { $id: 'd.json', type: 'number' } } } },
      },
      allOf: [{ $ref: 'http://example.com/b/d.json' }],
    },
    [1],
    ['a'],
  ],
  [
    'a $ref resolves against its own object’s $id (2020-12)',
    {
      $id: 'https://example.com/base/root.json',
      $ref: 'int.json',
      $defs: { big: { $id: 'int.json', maximum: 10 }, small: { $id: '/base-int.json', maximum: 2 } },
    },
    [5],
    [50],
  ],
  [
    'a JSON pointer after a relative resource URI starts at that resource',
    {
      $id: 'http://example.com/one.json',
      properties: {
        foo: {
          $id: 'two.json',
          $defs: { inner: { properties: { bar: { type: 'string' } } } },
          $ref: '#/$defs/inner',
        },
      },
      $ref: 'two.json',
    },
    [{ foo: { bar: 'a' }, bar: 'b' }],
    [
      { foo: { bar: 1 }, bar: 'a' },
      { foo: { bar: 'a' }, bar: 1 },
    ],
  ],
  [
    'an anchor belongs to the resource it stands in',
    {
      $id: 'http://example.com/root',
      $ref: 'http://example.com/nested.json#foo',
      $defs: { A: { $id: 'nested.json', $defs: { B: { $anchor: 'foo', type: 'integer' } } } },
    },
    [1],
    ['a'],
  ],
  [
    'the same anchor name in two resources is two anchors',
    {
      $id: 'http://example.com/foobar',
      $defs: {
        A: {
          $id: 'child1',
          allOf: [
            { $id: 'child2', $anchor: 'my_anchor', type: 'number' },
            { $anchor: 'my_anchor', type: 'string' },
          ],
        },
      },
      $ref: 'child1#my_anchor',
    },
    ['a'],
    [1],
  ],
  [
    'a URN base, referenced as a whole and with an anchor',
    {
      $id: 'urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed',
      minimum: 30,
      properties: {
        foo: { $ref: 'urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed' },
        bar: { $ref: 'urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed#s' },
      },
      $defs: { s: { $anchor: 's', type: 'string' } },
    },
    [{ foo: 37, bar: 'x' }],
    [{ foo: 12 }, { bar: 1 }],
  ],
  [
    'a file: base still resolves pointers',
    { $id: 'file:///folder/file.json', $defs: { foo: { type: 'number' } }, $ref: '#/$defs/foo' },
    [1],
    ['a'],
  ],
  [
    'an unnormalized $id and an $id with an empty fragment name their resource',
    {
      allOf: [{ $ref: 'http://example.com/foo/baz' }, { $ref: 'http://example.com/bar' }],
      $defs: {
        A: { $id: 'http://example.com/foo/bar/../baz', type: 'integer' },
        B: { $id: 'http://example.com/bar#', minimum: 0 },
      },
    },
    [1],
    ['a', -1],
  ],
  [
    'a $ref to an $id inside if',
    { $ref: 'http://example.com/ref/if', if: { $id: 'http://example.com/ref/if', type: 'integer' } },
    [12],
    ['foo'],
  ],
  [
    'empty pointer tokens are keys',
    { $defs: { '': { $defs: { '': { type: 'number' } } } }, allOf: [{ $ref: '#/$defs//$defs/' }] },
    [1],
    ['a'],
  ],
  [
    'an $id inside an unknown keyword or an enum is no identifier',
    {
      $defs: {
        fake: { not: { x_schemas: [{ $id: 'https://example.com/my.json', type: 'null' }] } },
        real: { $id: 'https://example.com/my.json', type: 'string' },
      },
      enum: ['a', { $id: 'https://example.com/other.json' }],
      anyOf: [{ $ref: '#/$defs/fake' }, { $ref: 'https://example.com/my.json' }],
    },
    ['a'],
    ['b', { $id: 'https://example.com/other.json' }],
  ],
  [
    'draft-07: a $ref ignores its sibling $id',
    {
      $schema: D7,
      $id: 'http://example.com/sibling_id/base/',
      definitions: {
        foo: { $id: 'http://example.com/sibling_id/foo.json', type: 'string' },
        base_foo: { $id: 'foo.json', type: 'number' },
      },
      allOf: [{ $id: 'http://example.com/sibling_id/', $ref: 'foo.json' }],
    },
    [5],
    ['a'],
  ],
  [
    'draft-07: `$id: "#name"` is an anchor of the resource it stands in',
    {
      $schema: D7,
      $id: 'http://example.com/root',
      allOf: [{ $ref: 'http://example.com/nested.json#foo' }],
      definitions: { A: { $id: 'nested.json', definitions: { B: { $id: '#foo', type: 'integer' } } } },
    },
    [1],
    ['a'],
  ],
]

describe.each([
  ['generated checks', true],
  ['interpreter', false],
])('$ref resolution by URI (%s)', (_mode, fast) => {
  setFastChecksEnabled(fast)
  afterAll(() => setFastChecksEnabled(true))

  it.each(cases)('%s', (_name, schema, valid, invalid) => {
    const check = compileJsonSchemaValidator(schema as JsonSchema)
    for (const value of valid) expect(check(value)).toEqual([])
    for (const value of invalid) expect(check(value).length).toBeGreaterThan(0)
  })
})

describe('refusals', () => {
  it.each<[string, unknown, RegExp]>([
    [
      'a URI no resource of the document has',
      { $id: 'http://example.com/a.json', $ref: 'b.json' },
      /remote \$ref "b.json"/,
    ],
    [
      'an anchor of another resource',
      { $defs: { A: { $id: 'http://example.com/x', $anchor: 'a' } }, $ref: '#a' },
      /no anchor "a"/,
    ],
    [
      'two schemas naming one resource',
      { $defs: { A: { $id: 'http://example.com/x' }, B: { $id: 'http://example.com/x' } } },
      /names a resource that another schema already names/,
    ],
  ])('refuses %s at registration', (_name, schema, message) => {
    expect(() => compileJsonSchemaValidator(schema as JsonSchema)).toThrow(message)
  })
})

describe('hostile documents', () => {
  it('refuses a deep chain of relative $ids before resolving it costs the square of its depth', () => {
    let schema: JsonSchema = { type: 'integer' }
    for (let i = 0; i < 10_000; i++) schema = { $id: 'a/', properties: { x: schema } }
    expect(() => compileJsonSchemaValidator(schema)).toThrow(/makes a base URI longer than 4096 characters/)
  })

  it('compiles a 10,000-deep chain of nested resources with absolute ids (no recursion)', () => {
    let schema: JsonSchema = { type: 'integer' }
    for (let i = 0; i < 10_000; i++) schema = { $id: `urn:r:${i}`, properties: { x: schema } }
    const check = compileJsonSchemaValidator({
      ...schema,
      $defs: { last: { $ref: 'urn:r:0#/properties/x' } },
    })
    expect(check({})).toEqual([])
  })
})

describe('consumers that follow $ref as a root pointer (code generators, provider dialects)', () => {
  const document = {
    $id: 'http://example.com/root.json',
    type: 'object',
    properties: {
      a: { $ref: 'nested.json' },
      b: { $ref: 'nested.json#/$defs/Inner' },
      c: { $ref: '#/$defs/Plain' },
    },
    required: ['a', 'b', 'c'],
    $defs: {
      A: { $id: 'nested.json', type: 'integer', $defs: { Inner: { type: 'string', minLength: 1 } } },
      Plain: { type: 'boolean' },
    },
  } as unknown as JsonSchema

  it('see the nested resources a URI ref names', () => {
    expect(jsonSchemaToTs(document)).toBe('{ a: number; b: string; c: boolean }')
    const strict = toProviderSchema(document, 'openai-strict').schema
    expect(checkOpenAiStrictSchema(strict)).toEqual([])
    expect(JSON.stringify(strict)).toContain('"$ref":"#/$defs/A/$defs/Inner"')
    expect(checkGeminiSchema(toProviderSchema(document, 'gemini').schema)).toEqual([])
    expect(providerArgsToCanonical({ a: 1, b: 'x', c: true }, document, 'openai-strict')).toEqual({
      a: 1,
      b: 'x',
      c: true,
    })
  })

  it('leave cyclic, shared and accessor-bearing values alone, without invoking an accessor', () => {
    const cyclic: Record<string, unknown> = { $defs: { A: { $id: 'a.json' } } }
    cyclic.items = cyclic
    const shared = { $id: 'x.json' }
    const dag = { $defs: { A: shared, B: shared } }
    let reads = 0
    const accessor = {
      $defs: { A: { $id: 'a.json' } },
      get items() {
        reads++
        return {}
      },
    }
    expect(rootPointerRefs(cyclic)).toBe(cyclic)
    expect(rootPointerRefs(dag)).toBe(dag)
    expect(rootPointerRefs(accessor)).toBe(accessor)
    expect(reads).toBe(0)
    expect(jsonSchemaToTs(cyclic)).toBe('unknown[]')
  })

  it('leave documents without nested $id as they are (same object, so identity caches hold)', () => {
    const plain = { properties: { n: { $ref: '#/$defs/N' } }, $defs: { N: { $id: '#n', type: 'number' } } }
    expect(rootPointerRefs(plain)).toBe(plain)
  })
})

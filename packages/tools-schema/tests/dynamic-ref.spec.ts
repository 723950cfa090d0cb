// `$dynamicRef` (2020-12) / `$recursiveRef` (2019-09): exactly a `$ref` wherever no second schema
// carries the matching dynamic anchor; refused where the evaluation path could change the target
// (src/internal/dynamic-ref.ts). Before, both were ignored as unknown keywords.
import { afterAll, describe, expect, it } from 'vitest'
import { compileJsonSchemaValidator, type JsonSchema, lintSchema } from '../src/index'
import { setFastChecksEnabled } from '../src/internal/jit-checker'

const S2019 = 'https://json-schema.org/draft/2019-09/schema'

const cases: [string, unknown, unknown[], unknown[]][] = [
  [
    '$dynamicRef with a pointer fragment is a $ref',
    { $dynamicRef: '#/$defs/a', $defs: { a: { type: 'integer' } } },
    [1],
    ['a'],
  ],
  [
    '$dynamicRef to the only $dynamicAnchor of its name (a recursive list)',
    {
      $ref: '#/$defs/list',
      $defs: { list: { $dynamicAnchor: 'node', type: 'array', items: { $dynamicRef: '#node' } } },
    },
    [[], [[], [[]]]],
    [[1], [[], ['x']]],
  ],
  [
    '$dynamicRef to a plain $anchor stays static beside other dynamic anchors of that name',
    {
      $id: 'https://example.com/root',
      type: 'array',
      items: { $dynamicRef: '#items' },
      $defs: {
        foo: { $anchor: 'items', type: 'string' },
        other: { $id: 'other', $dynamicAnchor: 'items', type: 'number' },
      },
    },
    [['a', 'b']],
    [['a', 1]],
  ],
  [
    'a $ref to a $dynamicAnchor is a $ref to an anchor',
    { $ref: '#meta', $defs: { m: { $dynamicAnchor: 'meta', minimum: 3 } } },
    [3],
    [2],
  ],
  [
    '2019-09: $recursiveRef without a second $recursiveAnchor (a tree of objects)',
    { $schema: S2019, $recursiveAnchor: true, type: 'object', additionalProperties: { $recursiveRef: '#' } },
    [{}, { a: { b: {} } }],
    [{ a: 1 }, { a: { b: [] } }],
  ],
  [
    '2019-09: $dynamicRef is an unknown keyword',
    { $schema: S2019, $dynamicRef: '#/$defs/never', $defs: {} },
    [1, 'a'],
    [],
  ],
  ['2020-12: $recursiveRef is an unknown keyword', { $recursiveRef: 'not even #' }, [1], []],
]

describe.each([
  ['generated checks', true],
  ['interpreter', false],
])('dynamic references resolved statically (%s)', (_mode, fast) => {
  setFastChecksEnabled(fast)
  afterAll(() => setFastChecksEnabled(true))

  it.each(cases)('%s', (_name, schema, valid, invalid) => {
    const check = compileJsonSchemaValidator(schema as JsonSchema)
    for (const value of valid) expect(check(value)).toEqual([])
    for (const value of invalid) expect(check(value).length).toBeGreaterThan(0)
  })

  it('reports a dynamic target’s violation at the value’s path', () => {
    const check = compileJsonSchemaValidator({
      $ref: '#/$defs/list',
      $defs: { list: { $dynamicAnchor: 'node', type: 'array', items: { $dynamicRef: '#node' } } },
    } as JsonSchema)
    expect(check([[], [7]])).toEqual([{ path: '$[1][0]', message: 'expected array, got number' }])
  })
})

describe('refusals', () => {
  it.each<[string, unknown, RegExp]>([
    [
      'a $dynamicRef two $dynamicAnchors compete for',
      {
        $id: 'https://example.com/strict-tree',
        $dynamicAnchor: 'node',
        $ref: 'tree',
        unknownProp: false,
        $defs: {
          tree: {
            $id: 'tree',
            $dynamicAnchor: 'node',
            type: 'object',
            properties: { children: { type: 'array', items: { $dynamicRef: '#node' } } },
          },
        },
      },
      /\$\.\$defs\.tree\.properties\.children\.items\.\$dynamicRef: \$dynamicRef "#node" can resolve to any of 2 schemas/,
    ],
    [
      'a $recursiveRef two $recursiveAnchors compete for',
      {
        $schema: S2019,
        $id: 'https://example.com/root',
        $recursiveAnchor: true,
        $ref: 'tree',
        $defs: { tree: { $id: 'tree', $recursiveAnchor: true, properties: { c: { $recursiveRef: '#' } } } },
      },
      /\$recursiveRef "#" can resolve to any of 2 schemas/,
    ],
    [
      'a $recursiveRef other than "#"',
      { $schema: S2019, $recursiveRef: '#/$defs/x' },
      /\$recursiveRef must be "#"/,
    ],
    [
      'a $dynamicAnchor that is no plain name',
      { $dynamicAnchor: '#x' },
      /\$dynamicAnchor must be a plain name/,
    ],
    ['a $dynamicRef that does not resolve', { $dynamicRef: '#nowhere' }, /no anchor "nowhere"/],
  ])('refuses %s at registration', (_name, schema, message) => {
    expect(() => compileJsonSchemaValidator(schema as JsonSchema)).toThrow(message)
  })

  it('lintSchema knows the dynamic keywords of each dialect', () => {
    expect(lintSchema({ $dynamicRef: '#/$defs/a', $defs: { a: {} } })).toEqual([])
    expect(lintSchema({ $schema: S2019, $recursiveAnchor: true, items: { $recursiveRef: '#' } })).toEqual([])
    expect(
      lintSchema({ $schema: S2019, $dynamicRef: '#/$defs/a', $defs: { a: {} } }).map((l) => l.path),
    ).toEqual(['$.$dynamicRef'])
  })
})

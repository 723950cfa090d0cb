// Workload: full JSON Schema validation of valid tool arguments, ours vs ajv (2020-12 build,
// compiled, allErrors off) in the same process, on several shapes: a nullable anyOf/oneOf per
// element of a 50-element array, a discriminated union, a $ref-heavy schema, a recursive tree
// and a bounds-heavy object. Reported as our time / ajv's time per shape (≤ 1 means we are at
// least as fast), both measured interleaved in the same run so machine load affects both alike.
import { compileJsonSchemaValidator, type JsonSchema } from '@dsh/tools-schema'
import { Ajv2020 } from 'ajv/dist/2020.js'
import type { BenchRow } from './types'

const item = {
  type: 'object',
  properties: {
    id: { type: 'integer', minimum: 0 },
    label: { type: 'string', maxLength: 40 },
    weight: { type: 'number' },
  },
  required: ['id', 'label'],
  additionalProperties: false,
}

const shapes: { name: string; schema: JsonSchema; value: unknown }[] = [
  {
    name: 'nullable anyOf per element (50)',
    schema: {
      type: 'object',
      properties: { items: { type: 'array', items: { anyOf: [{ type: 'null' }, item] } } },
      required: ['items'],
    },
    value: {
      items: Array.from({ length: 50 }, (_, i) =>
        i % 5 === 0 ? null : { id: i, label: `item ${i}`, weight: i / 7 },
      ),
    },
  },
  {
    name: 'nullable oneOf per element (50)',
    schema: {
      type: 'object',
      properties: { items: { type: 'array', items: { oneOf: [{ type: 'null' }, item] } } },
      required: ['items'],
    },
    value: {
      items: Array.from({ length: 50 }, (_, i) => (i % 5 === 0 ? null : { id: i, label: `item ${i}` })),
    },
  },
  {
    name: 'discriminated union (50)',
    schema: {
      type: 'array',
      items: {
        oneOf: [
          {
            type: 'object',
            properties: { kind: { const: 'file' }, path: { type: 'string' } },
            required: ['kind', 'path'],
            additionalProperties: false,
          },
          {
            type: 'object',
            properties: { kind: { const: 'url' }, url: { type: 'string', format: 'uri' } },
            required: ['kind', 'url'],
            additionalProperties: false,
          },
          {
            type: 'object',
            properties: { kind: { const: 'text' }, text: { type: 'string' } },
            required: ['kind', 'text'],
            additionalProperties: false,
          },
        ],
      },
    },
    value: Array.from({ length: 50 }, (_, i) =>
      i % 3 === 0
        ? { kind: 'file', path: `/tmp/${i}` }
        : i % 3 === 1
          ? { kind: 'url', url: `https://e.com/${i}` }
          : { kind: 'text', text: 'x' },
    ),
  },
  {
    name: '$ref-heavy (defs for every field)',
    schema: {
      $defs: {
        id: { type: 'string', minLength: 1 },
        count: { type: 'integer', minimum: 0 },
        tag: { type: 'string', pattern: '^[a-z]+$' },
        entry: {
          type: 'object',
          properties: {
            id: { $ref: '#/$defs/id' },
            n: { $ref: '#/$defs/count' },
            tags: { type: 'array', items: { $ref: '#/$defs/tag' } },
          },
          required: ['id'],
        },
      },
      type: 'object',
      properties: { entries: { type: 'array', items: { $ref: '#/$defs/entry' } } },
    },
    value: { entries: Array.from({ length: 30 }, (_, i) => ({ id: `e${i}`, n: i, tags: ['a', 'bc'] })) },
  },
  {
    name: 'recursive tree (depth 6, fan-out 2)',
    schema: {
      $defs: {
        node: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/$defs/node' } },
          },
          required: ['name'],
        },
      },
      $ref: '#/$defs/node',
    },
    value: (function tree(depth: number): unknown {
      return { name: `n${depth}`, children: depth === 0 ? [] : [tree(depth - 1), tree(depth - 1)] }
    })(6),
  },
  {
    name: 'bounds-heavy object',
    schema: {
      type: 'object',
      properties: {
        a: { type: 'integer', minimum: 0, maximum: 100, multipleOf: 5 },
        b: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
        c: { type: 'string', minLength: 2, maxLength: 20, pattern: '^[a-z]+$' },
        d: { type: 'array', minItems: 1, maxItems: 5, uniqueItems: true, items: { type: 'integer' } },
        e: { type: 'object', minProperties: 1, maxProperties: 3, additionalProperties: { type: 'boolean' } },
        f: { type: ['string', 'null'], enum: ['x', 'y', null] },
      },
      required: ['a', 'b', 'c', 'd', 'e'],
    },
    value: { a: 45, b: 0.5, c: 'hello', d: [1, 2, 3], e: { x: true }, f: null },
  },
]

function opsPerSecond(fn: () => void, minMs: number): number {
  let ops = 0
  const start = performance.now()
  let elapsed = 0
  while (elapsed < minMs) {
    for (let i = 0; i < 100; i++) fn()
    ops += 100
    elapsed = performance.now() - start
  }
  return (ops / elapsed) * 1000
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

/** Runs every shape: interleaved rounds, median ops/s each, and ajv time / our time. */
export default async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  for (const shape of shapes) {
    const ours = compileJsonSchemaValidator(shape.schema)
    const theirs = new Ajv2020({ strict: false, validateFormats: false }).compile(shape.schema as object)
    if (ours(shape.value).length !== 0 || !theirs(shape.value))
      throw new Error(`bench input must be valid: ${shape.name}`)
    let sink = 0
    const runOurs = () => {
      sink += ours(shape.value).length
    }
    const runTheirs = () => {
      sink += theirs(shape.value) ? 0 : 1
    }
    opsPerSecond(runOurs, 150)
    opsPerSecond(runTheirs, 150)
    const oursRounds: number[] = []
    const ajvRounds: number[] = []
    for (let round = 0; round < 5; round++) {
      oursRounds.push(opsPerSecond(runOurs, 150))
      ajvRounds.push(opsPerSecond(runTheirs, 150))
    }
    if (sink !== 0) throw new Error('unexpected violations during the benchmark')
    const oursOps = median(oursRounds)
    const ajvOps = median(ajvRounds)
    rows.push(
      {
        workload: `schema-full: ${shape.name}`,
        metric: 'ours (µs)',
        value: 1e6 / oursOps,
        unit: 'µs/validation',
      },
      {
        workload: `schema-full: ${shape.name}`,
        metric: 'ajv (µs)',
        value: 1e6 / ajvOps,
        unit: 'µs/validation',
        note: 'floor',
      },
    )
    rows.push({
      workload: `schema-full: ${shape.name}`,
      metric: 'our time / ajv time',
      value: ajvOps / oursOps,
      unit: 'x',
      note: `ours ${(1e6 / oursOps).toFixed(2)} µs, ajv ${(1e6 / ajvOps).toFixed(2)} µs; target ≤ 1.0`,
    })
  }
  return rows
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(await run())
}

// Workload: validating a nested tool-argument object (10 fields, an array of 50 objects of
// 5 fields, enums and a oneOf) with @dsh/tools-schema `validateArgs` and with ajv's compiled
// validator for the same JSON Schema, in the same process.
import { type ParameterSchemaSpec, parameterSchemaSpecToJsonSchema, validateArgs } from '@dsh/tools-schema'
import { Ajv } from 'ajv'
import type { BenchRow } from './types'

const WORKLOAD = 'schema-validate: nested args (10 fields, 50×5 items, enums, oneOf)'

export const spec = {
  id: { type: 'string', required: true },
  name: { type: 'string', required: true, description: 'Display name' },
  mode: { type: 'string', enum: ['fast', 'slow', 'auto'], required: true },
  count: { type: 'integer', required: true },
  ratio: { type: 'number' },
  enabled: { type: 'boolean', required: true },
  tags: { type: 'array', items: { type: 'string' } },
  target: {
    required: true,
    oneOf: [
      {
        type: 'object',
        properties: {
          kind: { type: 'string', const: 'file', required: true },
          path: { type: 'string', required: true },
        },
        additionalProperties: false,
      },
      {
        type: 'object',
        properties: {
          kind: { type: 'string', const: 'url', required: true },
          url: { type: 'string', required: true },
        },
        additionalProperties: false,
      },
    ],
  },
  options: {
    type: 'object',
    properties: { verbose: { type: 'boolean' }, level: { type: 'integer', enum: [0, 1, 2, 3] } },
    additionalProperties: false,
  },
  items: {
    type: 'array',
    required: true,
    items: {
      type: 'object',
      properties: {
        id: { type: 'integer', required: true },
        label: { type: 'string', required: true },
        status: { type: 'string', enum: ['todo', 'doing', 'done'], required: true },
        weight: { type: 'number' },
        done: { type: 'boolean' },
      },
      additionalProperties: false,
    },
  },
} as const satisfies ParameterSchemaSpec

export function makeArgs(): unknown {
  return {
    id: 'job-42',
    name: 'nightly import',
    mode: 'auto',
    count: 50,
    ratio: 0.75,
    enabled: true,
    tags: ['a', 'b', 'c'],
    target: { kind: 'url', url: 'https://example.com/feed' },
    options: { verbose: false, level: 2 },
    items: Array.from({ length: 50 }, (_, i) => ({
      id: i,
      label: `item ${i}`,
      status: (['todo', 'doing', 'done'] as const)[i % 3],
      weight: i / 7,
      done: i % 2 === 0,
    })),
  }
}

function opsPerSecond(fn: () => void, minMs: number): number {
  let ops = 0
  const start = performance.now()
  let elapsed = 0
  while (elapsed < minMs) {
    for (let i = 0; i < 200; i++) fn()
    ops += 200
    elapsed = performance.now() - start
  }
  return (ops / elapsed) * 1000
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

/** Runs the workload: interleaved rounds, median ops/s for each validator, and the ratio. */
export default async function run(): Promise<BenchRow[]> {
  const args = makeArgs()
  const node = parameterSchemaSpecToJsonSchema(spec)
  const ajvValidate = new Ajv({ allErrors: true, strict: false }).compile(node)
  if (validateArgs(spec, args).length !== 0 || !ajvValidate(args))
    throw new Error('bench input must be valid')
  let sink = 0
  const ours = () => {
    sink += validateArgs(spec, args).length
  }
  const theirs = () => {
    sink += ajvValidate(args) ? 0 : 1
  }
  opsPerSecond(ours, 300)
  opsPerSecond(theirs, 300)
  const oursRounds: number[] = []
  const ajvRounds: number[] = []
  for (let round = 0; round < 5; round++) {
    oursRounds.push(opsPerSecond(ours, 400))
    ajvRounds.push(opsPerSecond(theirs, 400))
  }
  if (sink !== 0) throw new Error('unexpected violations during the benchmark')
  const oursOps = median(oursRounds)
  const ajvOps = median(ajvRounds)
  return [
    {
      workload: WORKLOAD,
      metric: 'validateArgs',
      value: oursOps,
      unit: 'ops/s',
      note: `${(1e6 / oursOps).toFixed(1)} µs/op`,
    },
    {
      workload: WORKLOAD,
      metric: 'ajv (compiled)',
      value: ajvOps,
      unit: 'ops/s',
      note: `${(1e6 / ajvOps).toFixed(1)} µs/op`,
    },
    {
      workload: WORKLOAD,
      metric: 'ajv / validateArgs',
      value: ajvOps / oursOps,
      unit: 'x',
      note: 'target ≤ 2',
    },
  ]
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(await run())
}

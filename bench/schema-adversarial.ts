// Workload: validating a ~1 MB argument against schemas a hostile server could register (each
// one passes the registration gate), reported as a ratio to `JSON.parse` of the same text in
// the same run (target ≤ 10×). "validate" is the compiled validator on the parsed value;
// "snapshot + validate" adds the pipeline's measuring pass (`snapshotJsonText` with the
// tools-core argument limits) to it. Rounds are interleaved, each figure is the median.
import { compileJsonSchemaValidator, type JsonSchema, snapshotJsonText } from '@dsh/tools-schema'
import type { BenchRow } from './types'

const TARGET = 1_000_000
// tools-core's default argument limits (DEFAULT_VALUE_LIMITS).
const LIMITS = { maxNodes: 1_000_000, maxDepth: 64, maxStringLength: 64 * 1024 * 1024 }

/** A balanced tree of arrays about `bytes` long, depth ≤ `depth`, distinct leaves. */
function arrayTree(bytes: number, fanOut: number, depth: number): unknown {
  let next = 0
  const build = (level: number): unknown =>
    level === depth ? next++ : Array.from({ length: fanOut }, () => build(level + 1))
  const unit = JSON.stringify(build(0)).length
  next = 0
  return Array.from({ length: Math.max(1, Math.floor(bytes / unit)) }, () => build(0))
}

function keys(count: number, name: (i: number) => string, value: (i: number) => unknown) {
  const out: Record<string, unknown> = {}
  for (let i = 0; i < count; i++) out[name(i)] = value(i)
  return out
}

const shapes: { name: string; schema: JsonSchema; value: () => unknown }[] = [
  {
    name: 'pattern ^(a+)+$ on a 1 MB string',
    schema: { type: 'object', properties: { q: { type: 'string', pattern: '^(a+)+$' } } },
    value: () => ({ q: 'a'.repeat(TARGET) }),
  },
  {
    name: 'patternProperties (x+x+)+y × 50k keys',
    schema: {
      type: 'object',
      patternProperties: { '^(x+x+)+y$': { type: 'integer' }, '^(a|aa)+$': { type: 'string' } },
      propertyNames: { pattern: '^(x|xx)+[a-z0-9]*$' },
    },
    value: () =>
      keys(
        50_000,
        (i) => `xxxxxxxxxx${i.toString(36)}`,
        (i) => i,
      ),
  },
  {
    name: 'uniqueItems at every level of a recursive array',
    schema: {
      $defs: {
        n: {
          type: 'array',
          uniqueItems: true,
          items: { anyOf: [{ type: 'integer' }, { $ref: '#/$defs/n' }] },
        },
      },
      $ref: '#/$defs/n',
    },
    value: () => arrayTree(TARGET, 4, 6),
  },
  {
    name: 'anyOf whose first branch fails late, recursive',
    schema: {
      $defs: {
        s: {
          anyOf: [
            { type: 'array', items: { $ref: '#/$defs/s' }, contains: { type: 'string' } },
            { type: 'array', items: { $ref: '#/$defs/s' } },
            { type: 'integer' },
          ],
        },
      },
      $ref: '#/$defs/s',
    },
    value: () => arrayTree(TARGET, 3, 10),
  },
  {
    name: 'oneOf of two overlapping recursive branches',
    schema: {
      $defs: {
        s: {
          oneOf: [
            { type: 'array', items: { $ref: '#/$defs/s' }, maxItems: 1000 },
            { type: 'array', items: { $ref: '#/$defs/s' }, minItems: 1001 },
            { type: 'integer' },
          ],
        },
      },
      $ref: '#/$defs/s',
    },
    value: () => arrayTree(TARGET, 3, 10),
  },
  {
    name: 'enum of objects at every level',
    schema: {
      $defs: {
        o: {
          anyOf: [
            { enum: [{ k: 1 }, { k: [1, 2] }, [{}]] },
            { type: 'object', additionalProperties: { $ref: '#/$defs/o' } },
            { type: 'integer' },
          ],
        },
      },
      $ref: '#/$defs/o',
    },
    value: () => {
      const leaf = (i: number) =>
        keys(
          8,
          (j) => `k${j}`,
          (j) => i * 8 + j,
        )
      const mid = (i: number) =>
        keys(
          8,
          (j) => `m${j}`,
          (j) => leaf(i * 8 + j),
        )
      return keys(Math.floor(TARGET / 1000), (i) => `t${i}`, mid)
    },
  },
  {
    name: 'closed object, 80k keys',
    schema: {
      type: 'object',
      properties: { a: { type: 'string' } },
      additionalProperties: { type: 'integer', minimum: 0 },
    },
    value: () =>
      keys(
        80_000,
        (i) => `key_${i}`,
        (i) => i,
      ),
  },
]

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

function timed(run: () => void): number {
  const start = performance.now()
  run()
  return performance.now() - start
}

export default async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  for (const shape of shapes) {
    const validate = compileJsonSchemaValidator(shape.schema)
    const text = JSON.stringify(shape.value())
    const parsed = JSON.parse(text)
    const violations = validate(parsed)
    if (violations.length !== 0)
      throw new Error(`bench input must be valid: ${shape.name}: ${violations[0]!.message}`)
    const parse: number[] = []
    const only: number[] = []
    const full: number[] = []
    for (let round = 0; round < 7; round++) {
      parse.push(timed(() => JSON.parse(text)))
      only.push(timed(() => validate(parsed)))
      full.push(timed(() => validate(snapshotJsonText(text, LIMITS).value)))
    }
    const floor = median(parse)
    const note = `${(text.length / 1e6).toFixed(2)} MB; JSON.parse ${floor.toFixed(1)} ms; target ≤ 10`
    rows.push(
      {
        workload: `schema-adversarial: ${shape.name}`,
        metric: 'validate / parse',
        value: median(only) / floor,
        unit: '×',
        note,
      },
      {
        workload: `schema-adversarial: ${shape.name}`,
        metric: 'snapshot + validate / parse',
        value: median(full) / floor,
        unit: '×',
      },
    )
  }
  return rows
}

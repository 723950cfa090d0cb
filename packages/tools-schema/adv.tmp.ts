import { compileJsonSchemaValidator, snapshotJsonText } from './src/index'
import { setFastChecksEnabled } from './src/internal/jit-checker'

const time = (label: string, f: () => unknown) => {
  const t = performance.now()
  const r = f()
  console.log(label, (performance.now() - t).toFixed(1), 'ms', JSON.stringify(r).slice(0, 150))
}
if (process.env.NOJIT) setFastChecksEnabled(false)
// recursive uniqueItems
const uq = compileJsonSchemaValidator({
  $defs: {
    n: { type: 'array', uniqueItems: true, items: { anyOf: [{ type: 'integer' }, { $ref: '#/$defs/n' }] } },
  },
  $ref: '#/$defs/n',
})
let v: unknown = [1]
for (let d = 0; d < 2000; d++) v = [d, v, [d + 1, d + 2, d + 3]]
const text = JSON.stringify(v)
console.log('uq size', text.length)
time('uniqueItems recursive', () => uq(JSON.parse(text)).length)
// allOf [S,S]
const dbl = compileJsonSchemaValidator({
  $defs: {
    s: { allOf: [{ $ref: '#/$defs/t' }, { $ref: '#/$defs/t' }] },
    t: { type: 'array', items: { $ref: '#/$defs/s' } },
  },
  $ref: '#/$defs/s',
})
let w: unknown = []
for (let d = 0; d < 40; d++) w = [w]
time('allOf doubling depth 40', () => dbl(w).length)
let w2: unknown = ['x']
for (let d = 0; d < 40; d++) w2 = [w2]
time('allOf doubling depth 40 invalid', () => dbl(w2).length)
// anyOf first-branch-fails-late
const any = compileJsonSchemaValidator({
  $defs: {
    s: {
      anyOf: [
        { type: 'array', items: { $ref: '#/$defs/s' }, contains: { type: 'string' } },
        { type: 'array', items: { $ref: '#/$defs/s' } },
      ],
    },
  },
  $ref: '#/$defs/s',
})
time('anyOf late-fail depth 40', () => any(w).length)
// patternProperties × keys
const pp = compileJsonSchemaValidator({
  type: 'object',
  patternProperties: { '^(a+)+$': { type: 'integer' }, '^x(y|z)*(y|z)*w$': true },
})
const big: Record<string, number> = {}
for (let i = 0; i < 300_000; i++) big[`a${'a'.repeat(i % 20)}k${i}`] = i
const bt = JSON.stringify(big)
console.log('pp size', bt.length)
time('JSON.parse', () => JSON.parse(bt) && 0)
time('snapshotJsonText', () => snapshotJsonText(bt).nodes)
const parsed = JSON.parse(bt)
time('patternProperties 300k keys', () => pp(parsed).length)
const open = compileJsonSchemaValidator({ type: 'object', properties: { a: { type: 'string' } } })
time('open object 300k keys', () => open(parsed).length)
const closed = compileJsonSchemaValidator({
  type: 'object',
  properties: { a: { type: 'string' } },
  additionalProperties: false,
})
time('closed object 300k keys (300k violations)', () => closed(parsed).length)

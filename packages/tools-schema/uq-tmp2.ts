import { compileJsonSchemaValidator } from './src/index'

function arrayTree(bytes: number, fanOut: number, depth: number): unknown {
  let next = 0
  const build = (level: number): unknown =>
    level === depth ? next++ : Array.from({ length: fanOut }, () => build(level + 1))
  const unit = JSON.stringify(build(0)).length
  next = 0
  return Array.from({ length: Math.max(1, Math.floor(bytes / unit)) }, () => build(0))
}
const schema: any = {
  $defs: {
    n: { type: 'array', uniqueItems: true, items: { anyOf: [{ type: 'integer' }, { $ref: '#/$defs/n' }] } },
  },
  $ref: '#/$defs/n',
}
const v = compileJsonSchemaValidator(schema)
const text = JSON.stringify(arrayTree(1_000_000, 4, 6))
let p = Infinity,
  q = Infinity
for (let r = 0; r < 15; r++) {
  let t = performance.now()
  const val = JSON.parse(text)
  p = Math.min(p, performance.now() - t)
  t = performance.now()
  v(val)
  q = Math.min(q, performance.now() - t)
}
console.log('parse', p.toFixed(1), 'validate', q.toFixed(1), 'ratio', (q / p).toFixed(1))

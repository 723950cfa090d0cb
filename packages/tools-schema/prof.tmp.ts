import { compileJsonSchemaValidator } from './src/index'

function arrayTree(bytes: number, fanOut: number, depth: number): unknown {
  let next = 0
  const build = (level: number): unknown =>
    level === depth ? next++ : Array.from({ length: fanOut }, () => build(level + 1))
  const unit = JSON.stringify(build(0)).length
  next = 0
  return Array.from({ length: Math.max(1, Math.floor(bytes / unit)) }, () => build(0))
}
const v = compileJsonSchemaValidator({
  $defs: {
    n: { type: 'array', uniqueItems: true, items: { anyOf: [{ type: 'integer' }, { $ref: '#/$defs/n' }] } },
  },
  $ref: '#/$defs/n',
})
const value = JSON.parse(JSON.stringify(arrayTree(1_000_000, 4, 6)))
for (let i = 0; i < 5; i++) {
  const t = performance.now()
  const r = v(value)
  console.log(performance.now() - t, r.length)
}

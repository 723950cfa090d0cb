import { compileJsonSchemaValidator } from './src/index'

const uq = compileJsonSchemaValidator({
  $defs: {
    n: { type: 'array', uniqueItems: true, items: { anyOf: [{ type: 'integer' }, { $ref: '#/$defs/n' }] } },
  },
  $ref: '#/$defs/n',
})
const plain = compileJsonSchemaValidator({
  $defs: { n: { type: 'array', items: { anyOf: [{ type: 'integer' }, { $ref: '#/$defs/n' }] } } },
  $ref: '#/$defs/n',
})
for (const depth of [150, 1000, 4000, 16000, 64000]) {
  let v: unknown = [1]
  for (let d = 0; d < depth; d++) v = [d, v, [d + 1, d + 2, d + 3]]
  const text = JSON.stringify(v)
  const parsed = JSON.parse(text)
  for (const [name, f] of [
    ['uq', uq],
    ['plain', plain],
  ] as const) {
    let best = Infinity
    for (let i = 0; i < 5; i++) {
      const t = performance.now()
      f(parsed)
      best = Math.min(best, performance.now() - t)
    }
    const t = performance.now()
    JSON.parse(text)
    const p = performance.now() - t
    console.log(name, depth, text.length, best.toFixed(2), 'ms; ratio to parse', (best / p).toFixed(1))
  }
}

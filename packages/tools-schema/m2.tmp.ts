import { compileJsonSchemaValidator, snapshotJson, snapshotJsonText } from './src/index'

const open = compileJsonSchemaValidator({ type: 'object', properties: { a: { type: 'string' } } })
const closed = compileJsonSchemaValidator({
  type: 'object',
  properties: { a: { type: 'string' } },
  additionalProperties: { type: 'integer' },
})
const best = (f: () => void) => {
  let b = Infinity
  for (let i = 0; i < 3; i++) {
    const t = performance.now()
    f()
    b = Math.min(b, performance.now() - t)
  }
  return b.toFixed(0)
}
for (const n of [75_000, 150_000, 300_000, 600_000]) {
  const objText = JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`key${i}`, i])))
  const o = JSON.parse(objText)
  const so = snapshotJson(JSON.parse(objText))
  console.log(
    n,
    'parse',
    best(() => JSON.parse(objText)),
    'keys',
    best(() => Object.keys(o)),
    'snapshot',
    best(() => snapshotJson(JSON.parse(objText))),
    'snapText',
    best(() => snapshotJsonText(objText)),
    'open',
    best(() => open(so)),
    'closed',
    best(() => closed(so)),
  )
}

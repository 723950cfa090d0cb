import { compileJsonSchemaValidator, snapshotJson, snapshotJsonText } from './src/index'

const text = JSON.stringify({ v: Array.from({ length: 999_999 }, (_, i) => i) })
const objText = JSON.stringify(Object.fromEntries(Array.from({ length: 300_000 }, (_, i) => [`key${i}`, i])))
const schema = compileJsonSchemaValidator({
  type: 'object',
  properties: { v: { type: 'array', items: { type: 'integer' } } },
})
const open = compileJsonSchemaValidator({ type: 'object', properties: { a: { type: 'string' } } })
for (let i = 0; i < 4; i++) {
  let t = performance.now()
  const v = JSON.parse(text)
  const a = performance.now() - t
  t = performance.now()
  const s = snapshotJson(v)
  const b = performance.now() - t
  t = performance.now()
  schema(s)
  const c = performance.now() - t
  t = performance.now()
  const o = JSON.parse(objText)
  const d = performance.now() - t
  t = performance.now()
  const so = snapshotJson(o)
  const e = performance.now() - t
  t = performance.now()
  open(so)
  const f = performance.now() - t
  t = performance.now()
  snapshotJsonText(objText)
  const g = performance.now() - t
  console.log(
    `1M array: parse ${a.toFixed(0)} snapshot ${b.toFixed(0)} validate ${c.toFixed(0)} | 300k keys (${(objText.length / 1e6).toFixed(1)}MB): parse ${d.toFixed(0)} snapshot ${e.toFixed(0)} validate ${f.toFixed(0)} snapshotText ${g.toFixed(0)}`,
  )
}

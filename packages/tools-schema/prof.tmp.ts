import { compileJsonSchemaValidator } from './src/index'

const big: Record<string, number> = {}
for (let i = 0; i < 300_000; i++) big[`a${'a'.repeat(i % 20)}k${i}`] = i
const parsed = JSON.parse(JSON.stringify(big))
const closed = compileJsonSchemaValidator({
  type: 'object',
  properties: { a: { type: 'string' } },
  additionalProperties: false,
})
for (let i = 0; i < 3; i++) {
  const t = performance.now()
  closed(parsed)
  console.log(performance.now() - t)
}

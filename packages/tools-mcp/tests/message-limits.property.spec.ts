/**
 * The two measures of one message agree: counted on its JSON text (before `JSON.parse`, as
 * `serveMcp` does for HTTP and stdio) and on the parsed value (SDK transports, the client
 * plugin), every JSON value and limit gives the same verdict. And the stdio line reader bounds
 * a line however it is split into chunks.
 */
import { PassThrough } from 'node:stream'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { exceededLimit } from '../src/message-limits'
import { BoundedStdioServerTransport } from '../src/server/bounded-stdio-transport'
import { textExceedsLimit } from '../src/text-exceeds-limit'

const limitsArbitrary = fc.record({
  maxBytes: fc.constant(1 << 30),
  maxNodes: fc.integer({ min: 1, max: 60 }),
  maxDepth: fc.integer({ min: 1, max: 8 }),
})

describe('message limits', () => {
  it('the text measure and the value measure give the same verdict for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), limitsArbitrary, (value, limits) => {
        const text = JSON.stringify(value)
        const parsed = JSON.parse(text) as unknown
        const byText = textExceedsLimit(text, limits)
        const byValue = exceededLimit(parsed, limits, false)
        expect(byText === undefined).toBe(byValue === undefined)
        // Depth is the first thing both report when only depth is exceeded.
        if (byValue?.includes('maxDepth') && exceededLimit(parsed, { ...limits, maxNodes: 1 << 30 }, false))
          expect(textExceedsLimit(text, { ...limits, maxNodes: 1 << 30 })).toMatch(/maxDepth/)
      }),
      { numRuns: 500 },
    )
  })

  it('the stdio reader passes every line within maxBytes whole and refuses each longer one, however chunked', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc
            .string({ minLength: 1, maxLength: 40 })
            .filter((line) => !/[\n\r]/.test(line) && line.trim() !== ''),
          { minLength: 1, maxLength: 12 },
        ),
        fc.array(fc.integer({ min: 1, max: 17 }), { minLength: 1, maxLength: 8 }),
        async (lines, cuts) => {
          const stdin = new PassThrough()
          const seen: string[] = []
          let oversized = 0
          const transport = new BoundedStdioServerTransport(
            20,
            (line) => seen.push(line),
            () => oversized++,
            stdin,
            new PassThrough(),
          )
          await transport.start()
          const input = Buffer.from(lines.map((line) => `${line}\n`).join(''))
          for (let at = 0, cut = 0; at < input.length; cut++) {
            const size = cuts[cut % cuts.length]!
            stdin.write(input.subarray(at, at + size))
            at += size
          }
          await new Promise((resolve) => setImmediate(resolve))
          expect(seen).toEqual(lines.filter((line) => Buffer.byteLength(line) <= 20))
          expect(oversized).toBe(lines.filter((line) => Buffer.byteLength(line) > 20).length)
          await transport.close()
        },
      ),
      { numRuns: 200 },
    )
  })
})

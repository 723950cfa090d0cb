// The text form of a call batch against JSON.parse: for any arguments, ids and names, the one-scan
// parser finds exactly the calls JSON.parse would (arguments kept as their own JSON text), with
// any JSON whitespace between tokens; and no text makes it throw. Seeded; DSH_PROPERTY_RUNS
// raises the number of cases for a longer local run.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { callBatchEntry, callBatchText, parseCallBatch } from '../src/protocol/call-batch'

const RUNS = Number(process.env.DSH_PROPERTY_RUNS ?? 300)
const SEED = 4242

const call = fc.record({
  name: fc.string({ maxLength: 12 }),
  args: fc.option(fc.jsonValue({ maxDepth: 4 }), { nil: undefined }),
})

describe('call batch text (property)', () => {
  it('finds the calls JSON.parse finds, arguments as their own text', () => {
    fc.assert(
      fc.property(fc.array(call, { minLength: 1, maxLength: 6 }), fc.nat(100), (calls, firstId) => {
        const text = callBatchText(
          calls.map((c, i) =>
            callBatchEntry(firstId + i, c.name, c.args === undefined ? '' : JSON.stringify(c.args)),
          ),
        )
        const parsed = parseCallBatch(text)
        expect(parsed.ok).toBe(true)
        if (!parsed.ok) return
        const reference = JSON.parse(text) as unknown[]
        expect(parsed.calls).toHaveLength(reference.length / 3)
        parsed.calls.forEach((c, i) => {
          expect(c.id).toBe(reference[i * 3])
          expect(c.name).toBe(reference[i * 3 + 1])
          const wrapped = reference[i * 3 + 2] as unknown[]
          if (wrapped.length === 0) expect(c.argsJson).toBeUndefined()
          else expect(JSON.parse(c.argsJson!)).toEqual(wrapped[0])
        })
      }),
      { seed: SEED, numRuns: RUNS },
    )
  })

  it('reads the same calls with JSON whitespace between tokens', () => {
    fc.assert(
      fc.property(
        fc.array(call, { minLength: 1, maxLength: 4 }),
        fc.constantFrom(' ', '\n', '\t', '\r\n  '),
        (calls, ws) => {
          const tight = callBatchText(
            calls.map((c, i) =>
              callBatchEntry(i + 1, c.name, c.args === undefined ? '' : JSON.stringify(c.args)),
            ),
          )
          const spaced = JSON.stringify(JSON.parse(tight), null, ws.includes('\n') ? 2 : 1).replace(
            /\n/g,
            ws.includes('\n') ? ws : '\n',
          )
          const a = parseCallBatch(tight)
          const b = parseCallBatch(`${ws}${spaced}${ws}`)
          expect(b.ok).toBe(true)
          if (!a.ok || !b.ok) return
          expect(
            b.calls.map((c) => [c.id, c.name, c.argsJson === undefined ? undefined : JSON.parse(c.argsJson)]),
          ).toEqual(
            a.calls.map((c) => [c.id, c.name, c.argsJson === undefined ? undefined : JSON.parse(c.argsJson)]),
          )
        },
      ),
      { seed: SEED, numRuns: RUNS },
    )
  })

  it('never throws, and accepts only texts whose frame JSON.parse accepts', () => {
    const token = fc.constantFrom('[', ']', '{', '}', ',', '"', '\\', ':', '1', 'x', ' ', '"e"', 'null')
    fc.assert(
      fc.property(fc.array(token, { maxLength: 30 }), (tokens) => {
        const text = tokens.join('')
        const parsed = parseCallBatch(text)
        if (!parsed.ok) return
        // Accepted: the frame is an array of [id, name, [≤1 item]] triples once the arguments
        // are valid JSON; arguments that are not fail their own call later.
        for (const c of parsed.calls) expect(() => JSON.stringify([c.id, c.name])).not.toThrow()
        const frame = `[${parsed.calls.map((c) => `${JSON.stringify(c.id)},${JSON.stringify(c.name)},[]`).join(',')}]`
        expect(Array.isArray(JSON.parse(frame))).toBe(true)
      }),
      { seed: SEED, numRuns: RUNS * 10 },
    )
  })
})

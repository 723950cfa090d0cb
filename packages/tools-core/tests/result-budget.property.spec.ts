// Properties of result budgets: cut JSON stays valid and keeps only original leaves; paging
// through read_result reassembles the exact original text.

import type { Context } from '@deepseek-ai/cordis'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defineTool, READ_RESULT_TOOL_NAME } from '../src/index'
import { budgetContent } from '../src/result-budget/budget-content'
import { call, createRuntime } from './fixtures/runtime'

const RUNS = Number(process.env.DSH_PROPERTY_RUNS ?? 100)
const note = { handle: 'res_test' }

function leaves(value: unknown, out: { strings: string[]; scalars: Set<string>; keys: Set<string> }) {
  if (typeof value === 'string') out.strings.push(value)
  else if (typeof value !== 'object' || value === null) out.scalars.add(JSON.stringify(value))
  else if (Array.isArray(value)) for (const item of value) leaves(item, out)
  else
    for (const [key, item] of Object.entries(value)) {
      out.keys.add(key)
      leaves(item, out)
    }
  return out
}

const CUT_STRING = /^([\s\S]*)…\[elided \d+ chars; [^\]]*\]…([\s\S]*)$/

describe('JSON cutting', () => {
  it('cut JSON parses, fits, names the handle, and every kept leaf and key comes from the original', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.array(fc.jsonValue(), { maxLength: 60 }), fc.dictionary(fc.string(), fc.jsonValue())),
        fc.integer({ min: 256, max: 4096 }),
        fc.boolean(),
        (doc, budget, pretty) => {
          const text = JSON.stringify(doc, null, pretty ? 2 : 0)
          const cut = budgetContent([{ type: 'text', text }], budget, () => note)
          if (cut === undefined) {
            expect(Buffer.byteLength(text)).toBeLessThanOrEqual(budget)
            return
          }
          const shown = (cut[0] as { text: string }).text
          expect(Buffer.byteLength(shown)).toBeLessThanOrEqual(budget)
          expect(shown).toContain('read_result handle=res_test') // every cut says where the rest is
          const parsed: unknown = JSON.parse(shown)
          const original = leaves(doc, { strings: [], scalars: new Set(), keys: new Set() })
          const kept = leaves(parsed, { strings: [], scalars: new Set(), keys: new Set() })
          for (const scalar of kept.scalars) expect(original.scalars.has(scalar)).toBe(true)
          for (const key of kept.keys) expect(key === '…' || original.keys.has(key)).toBe(true)
          for (const string of kept.strings) {
            if (original.strings.includes(string)) continue
            const parts = CUT_STRING.exec(string)
            if (parts === null) {
              expect(string).toContain('[elided ')
              continue
            }
            expect(original.strings.some((s) => s.startsWith(parts[1]!) && s.endsWith(parts[2]!))).toBe(true)
          }
        },
      ),
      { numRuns: RUNS },
    )
  })
})

describe('paging', () => {
  let ctx: Context
  beforeAll(async () => {
    ctx = await createRuntime({ resultBudget: { maxContentBytes: 256 } })
    ctx.tools.register(
      defineTool({
        name: 'echo_text',
        description: 'Echo.',
        parameters: { text: { type: 'string', required: true } },
        output: { schema: { type: 'string' }, render: (_a, value) => [{ type: 'text', text: value }] },
        execute: (args) => args.text,
      }),
    )
  })
  afterAll(() => ctx.fiber.dispose())

  it('read_result pages reassemble the exact original text (any unicode, any page size)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({
          unit: fc.constantFrom('binary', 'grapheme', 'grapheme-composite') as never,
          minLength: 200,
          maxLength: 1500,
        }),
        fc.option(fc.integer({ min: 8, max: 400 }), { nil: undefined }),
        async (text, limit) => {
          const cut = await ctx.tools.execute(call('echo_text', { text }))
          const shown = cut.content.map((part) => (part.type === 'text' ? part.text : '')).join('')
          const handle = /read_result handle=(res_[\w-]+)/.exec(shown)?.[1]
          if (handle === undefined) {
            expect(Buffer.byteLength(text)).toBeLessThanOrEqual(256)
            return
          }
          let joined = ''
          let offset: number | null = 0
          while (offset !== null) {
            const args: Record<string, unknown> = { handle, offset }
            if (limit !== undefined) args.limit = limit
            const page = await ctx.tools.execute(call(READ_RESULT_TOOL_NAME, args))
            if (page.isError) throw new Error(page.error.message)
            const value = page.value as { text: string; nextOffset: number | null }
            expect(value.text.length).toBeGreaterThan(0)
            joined += value.text
            offset = value.nextOffset
          }
          expect(joined).toBe(text)
        },
      ),
      { numRuns: Math.ceil(RUNS / 3) },
    )
  })
})

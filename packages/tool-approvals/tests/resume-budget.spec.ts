// A resumed call whose result is cut by the result budget (SPEC §12, §13.4): the full text goes
// to the store, publication is asynchronous, and the resume still returns — and stores, for a
// later resume — the cut result whose handle reads the whole text back.
import { Context } from '@deepseek-ai/cordis'
import ToolRuntime, {
  defineTool,
  MemoryToolStore,
  READ_RESULT_TOOL_NAME,
  type ToolExecutionResult,
  type ToolFailure,
} from '@dsh/tools-core'
import { afterEach, describe, expect, it } from 'vitest'
import ToolApprovals from '../src/index'
import { call, KEY, signal } from './fixtures/approvals-runtime'

const BIG = Array.from({ length: 400 }, (_, line) => `line ${line}: ${'x'.repeat(40)}`).join('\n')
const textOf = (result: ToolExecutionResult) =>
  result.content.map((part) => (part.type === 'text' ? part.text : '')).join('')

const contexts: Context[] = []
afterEach(async () => {
  for (const ctx of contexts.splice(0)) await ctx.fiber.dispose()
})

describe('resume under a result budget', () => {
  it('returns the cut result, stores it, and its handle reads the whole text', async () => {
    const ctx = new Context()
    contexts.push(ctx)
    await ctx.plugin(ToolRuntime, { resultBudget: { maxContentBytes: 1024 } })
    await ctx.plugin(MemoryToolStore)
    await ctx.plugin(ToolApprovals, { signingKey: KEY })
    let runs = 0
    ctx.tools.register(
      defineTool({
        name: 'export_log',
        description: 'Export the whole log.',
        parameters: {},
        output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
        execute: () => {
          runs++
          return BIG
        },
      }),
    )
    ctx.on('tools/pre-execute', async (execution, next) =>
      execution.name === 'export_log' ? ({ kind: 'ask', reason: 'exports need a person' } as const) : next(),
    )
    const asked = (await ctx.tools.execute(call('export_log', {}))) as ToolFailure
    expect(asked.error.info?.code).toBe('APPROVAL_PENDING')
    await ctx.approvals.decide(asked.pending!.ticket, { approve: true, by: 'ana' })

    const resumed = await ctx.tools.resume(asked.pending!.ticket, { signal: signal() })
    expect(resumed.isError, textOf(resumed)).toBe(false)
    expect(runs).toBe(1)
    const handle = /read_result handle=(res_[A-Za-z0-9_-]+)/.exec(textOf(resumed))?.[1]
    expect(handle, textOf(resumed)).toBeDefined()

    // A later resume returns the stored (cut) result and runs nothing.
    const again = await ctx.tools.resume(asked.pending!.ticket, { signal: signal() })
    expect(textOf(again)).toBe(textOf(resumed))
    expect(runs).toBe(1)

    // The handle reads the whole text from the store.
    let text = ''
    for (let offset = 0; ; ) {
      const page = await ctx.tools.execute(call(READ_RESULT_TOOL_NAME, { handle, offset }, `r${offset}`))
      expect(page.isError, textOf(page)).toBe(false)
      const value = (page as unknown as { value: { text: string; nextOffset: number | null } }).value
      text += value.text
      if (value.nextOffset === null) break
      offset = value.nextOffset
    }
    expect(text).toBe(BIG)
  })
})

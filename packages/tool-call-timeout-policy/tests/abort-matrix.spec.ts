import { Context } from '@deepseek-ai/cordis'
import ToolRuntime, { defineTool, type ToolExecutionResult } from '@dsh/tools-core'
import { describe, expect, it } from 'vitest'
import * as timeoutPolicy from '../src/index'

type Body = 'honours' | 'ignores'
type Cause = 'caller-abort' | 'timeout' | 'none'
type Entry = 'native' | 'batch'

const output = {
  schema: { type: 'string' },
  render: (_args: unknown, value: string) => [{ type: 'text' as const, text: value }],
} as const

/**
 * One call of a tool with a 20 ms budget. `timeout`: the body outlives the budget; `caller-abort`:
 * the caller aborts right after the body started (the deadline never fires); `none`: the body
 * finishes at once. A body that honours its signal rejects with the signal's reason.
 */
async function run(body: Body, cause: Cause, entry: Entry): Promise<ToolExecutionResult> {
  const ctx = new Context()
  await ctx.plugin(ToolRuntime)
  await ctx.plugin(timeoutPolicy)
  let started!: () => void
  const bodyStarted = new Promise<void>((r) => {
    started = r
  })
  ctx.tools.register(
    defineTool({
      name: 't',
      description: 'matrix',
      parameters: {},
      timeoutMs: cause === 'caller-abort' ? 60_000 : 20,
      isConcurrencySafe: () => true,
      output,
      execute: (_args, exec) =>
        new Promise<string>((resolve, reject) => {
          started()
          if (cause === 'none') return resolve('done')
          exec.signal.addEventListener('abort', () => {
            if (body === 'honours') reject(exec.signal.reason)
            // an ignoring body finishes a little later, whatever happened
            else setTimeout(() => resolve('done anyway'), 5)
          })
        }),
    }),
  )
  const controller = new AbortController()
  const input = { callId: 'c1', name: 't', arguments: {}, signal: controller.signal }
  const pending =
    entry === 'native'
      ? ctx.tools.execute(input)
      : ctx.tools.executeBatch([input], { signal: new AbortController().signal }).then((r) => r[0]!)
  await bodyStarted
  if (cause === 'caller-abort') controller.abort()
  return pending
}

const expected: Record<Cause, string> = { 'caller-abort': 'ABORTED', timeout: 'TOOL_TIMEOUT', none: 'OK' }

describe('abort classification under the timeout policy (body × cause × entry point)', () => {
  for (const entry of ['native', 'batch'] as const) {
    for (const body of ['honours', 'ignores'] as const) {
      for (const cause of ['caller-abort', 'timeout', 'none'] as const) {
        it(`${entry}: a body that ${body} its signal, ${cause} → ${expected[cause]}`, async () => {
          const result = await run(body, cause, entry)
          expect(result.isError ? result.error.info?.code : 'OK').toBe(expected[cause])
          if (cause === 'timeout' && result.isError) {
            expect(result.error.message).toBe('tool call timed out after 20ms')
          }
        })
      }
    }
  }
})

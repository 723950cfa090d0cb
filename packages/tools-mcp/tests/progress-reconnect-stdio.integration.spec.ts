import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as timeoutPolicy from '@dsh/tool-call-timeout-policy'
import type { ToolProgressUpdate } from '@dsh/tools-core'
import { afterAll, describe, expect, it } from 'vitest'
import {
  call,
  createApp,
  isAlive,
  loadMcp,
  registeredNames,
  stdioFixture,
  stdioFixtureFromFile,
  textOf,
  until,
} from './fixtures/app'

const dir = mkdtempSync(join(tmpdir(), 'tools-mcp-stdio-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function pidOf(ctx: Parameters<typeof call>[0]): Promise<number> {
  const result = await call(ctx, 'fx__pid')
  if (result.isError) throw new Error(result.error.message)
  return Number(textOf(result))
}

describe('client plugin over a real stdio child: progress and re-listing', () => {
  it('progress reaches tools/progress in order; a silent call times out', async () => {
    const { ctx } = await createApp()
    await ctx.plugin(timeoutPolicy, { resetTimeoutOnProgress: true })
    const fiber = await loadMcp(ctx, { name: 'fx', transport: await stdioFixture(), timeoutMs: 1500 })
    const updates: ToolProgressUpdate[] = []
    ctx.on('tools/progress', (execution, update) => {
      if (execution.name === 'fx__progress') updates.push(update)
    })
    // 6 × 100 ms, within the 1500 ms budget (a total bound: progress does not extend it).
    const progressing = await call(ctx, 'fx__progress', { steps: 6, ms: 100 })
    expect(textOf(progressing)).toBe('done after 6 steps')
    expect(updates).toEqual(
      Array.from({ length: 6 }, (_, i) => ({ progress: i + 1, total: 6, message: `step ${i + 1}` })),
    )
    const silent = await call(ctx, 'fx__slow', { ms: 3_600_000 })
    expect(silent.isError && silent.error.info?.code).toBe('TOOL_TIMEOUT')
    // The same child is still serving (a timeout cancels the call, not the session).
    const pid = await pidOf(ctx)
    await fiber.dispose()
    await until(() => !isAlive(pid))
  })

  it('a child restarted with another tool list: after the reconnect the registry matches it', async () => {
    const { ctx } = await createApp()
    const fixture = await stdioFixtureFromFile(join(dir, 'options.json'), { pageSize: 5 })
    const fiber = await loadMcp(ctx, { name: 'fx', transport: fixture.transport })
    expect(registeredNames(ctx, 'fx__')).toContain('fx__echo')
    const first = await pidOf(ctx)
    fixture.write({
      pageSize: 2,
      omit: ['echo', 'blocks'],
      extraTools: [
        { name: 'fresh', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
      ],
    })
    const crashed = await call(ctx, 'fx__crash')
    expect(crashed.isError && crashed.error.info?.code).toBe('TOOL_FAILED')
    await until(() => !isAlive(first))

    const second = await pidOf(ctx)
    expect(second).not.toBe(first)
    const names = registeredNames(ctx, 'fx__')
    expect(names).toContain('fx__fresh')
    expect(names).not.toContain('fx__echo')
    expect(names).not.toContain('fx__blocks')
    const removed = await call(ctx, 'fx__echo', { text: 'x' })
    expect(removed.isError && removed.error.info?.code).toBe('UNKNOWN_TOOL')
    expect(textOf(await call(ctx, 'fx__fresh', { text: 'from the new child' }))).toBe('from the new child')
    await fiber.dispose()
    await until(() => !isAlive(second))
  })
})

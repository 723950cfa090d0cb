import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from '@deepseek-ai/cordis'
import ToolRuntime, { type ToolProgressUpdate } from '@dsh/tools-core'
import { afterEach, describe, expect, it } from 'vitest'
import * as bash from '../src/index'

let dir: string
afterEach(() => rmSync(dir, { recursive: true, force: true }))

async function setup(progressIntervalMs: number) {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'dsh-bash-progress-')))
  const ctx = new Context()
  await ctx.plugin(ToolRuntime)
  await ctx.plugin(bash, { workdir: dir, sandbox: false, progressIntervalMs })
  const events: (['progress', ToolProgressUpdate] | ['result'])[] = []
  ctx.on('tools/progress', (_execution, update) => {
    events.push(['progress', update])
  })
  ctx.on('tools/result', () => {
    events.push(['result'])
  })
  const run = (command: string) =>
    ctx.tools.execute({
      callId: 'c1',
      name: 'bash',
      arguments: { command, description: 'test' },
      signal: new AbortController().signal,
    })
  return { run, events }
}

describe('bash progress', () => {
  it('a long command reports growing byte and line counts, all before its result', async () => {
    const { run, events } = await setup(20)
    const result = await run('for i in $(seq 1 8); do echo "line $i"; sleep 0.1; done; echo err >&2')
    expect(result.isError).toBe(false)
    expect(events.at(-1)).toEqual(['result'])
    const updates = events.slice(0, -1).map((event) => event[1]!)
    expect(updates.length).toBeGreaterThan(0)
    const bytes = updates.map((u) => u.progress!)
    expect([...bytes].sort((a, b) => a - b)).toEqual(bytes)
    expect(new Set(bytes).size).toBe(bytes.length)
    const total = result.isError ? 0 : (result.value as { stdout: string; stderr: string })
    expect(bytes.at(-1)!).toBeLessThanOrEqual(
      typeof total === 'object' ? total.stdout.length + total.stderr.length : 0,
    )
    for (const update of updates) expect(update.message).toMatch(/^\d+ bytes, \d+ lines of output so far$/)
  })

  it('a command that finishes within one interval reports nothing', async () => {
    const { run, events } = await setup(60_000)
    await run('seq 1 1000')
    expect(events).toEqual([['result']])
  })

  it('progressIntervalMs is validated', () => {
    for (const bad of [0, -5, 1.5, '250']) {
      const result = bash.Config['~standard'].validate({ progressIntervalMs: bad }) as { issues?: unknown[] }
      expect(result.issues?.length).toBe(1)
    }
  })
})

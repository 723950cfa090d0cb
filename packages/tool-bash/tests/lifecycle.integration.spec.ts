import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from '@deepseek-ai/cordis'
import ToolRuntime, { createScope, type ToolExecutionResult } from '@dsh/tools-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import * as bash from '../src/index'
import { sweepStalePrivateTmps } from '../src/private-tmp'
import { hostPids, markedSurvivors, pathWithoutRipgrep, uniqueMarker, waitForHostPids } from './helpers'

// Real bash in real bubblewrap: every way a call can end — its command killed by a signal, the
// caller's abort (during set-up or while it runs), its own timeout, the sandbox failing to start,
// the plugin's context or agent scope disposed mid-call — leaves no process and no temp directory.

let workspace: string
let privateTmp: string
let savedTmp: string | undefined

beforeAll(() => {
  // Everything the tool and the sandbox library put in os.tmpdir() lands here, where the test
  // can see it (the planner worker shares this environment).
  savedTmp = process.env.TMPDIR
  privateTmp = realpathSync(mkdtempSync(join(tmpdir(), 'dsh-bash-lifecycle-')))
  process.env.TMPDIR = privateTmp
})
afterAll(() => {
  // `process.env.X = undefined` would store the string 'undefined'
  if (savedTmp === undefined) delete process.env.TMPDIR
  else process.env.TMPDIR = savedTmp
  rmSync(privateTmp, { recursive: true, force: true })
})
beforeEach(() => {
  workspace = realpathSync(mkdtempSync(join(tmpdir(), 'ws-')))
})
afterEach(() => {
  rmSync(workspace, { recursive: true, force: true })
})

/** What is left in the temp directory besides the test's own workspace. */
const tempLeftovers = () => readdirSync(privateTmp).filter((name) => !name.startsWith('ws-'))

async function plugin(config: bash.BashConfigInput = {}) {
  const ctx = new Context()
  await ctx.plugin(ToolRuntime)
  const fiber = await ctx.plugin(bash, {
    workdir: workspace,
    killGraceMs: 200,
    sandbox: { fallback: 'refuse' },
    ...config,
  })
  const call = (command: string, signal = new AbortController().signal, timeoutMs?: number) =>
    ctx.tools.execute({
      callId: uniqueMarker(),
      name: 'bash',
      arguments: { command, description: 'lifecycle', ...(timeoutMs === undefined ? {} : { timeoutMs }) },
      signal,
    })
  return { ctx, fiber, call }
}

const codeOf = (result: ToolExecutionResult) => (result.isError ? result.error.info?.code : undefined)

describe('every exit of a sandboxed call leaves no process and no temp directory', () => {
  it('the command killed by a signal from inside', async () => {
    const { call } = await plugin()
    const result = await call('kill -9 $$')
    expect(result.isError).toBe(false)
    expect(tempLeftovers()).toEqual([])
  })

  it("the caller's abort while the command runs, and its own timeout", async () => {
    const { call } = await plugin()
    const marker = uniqueMarker()
    const controller = new AbortController()
    const running = call(`sleep 100.${marker}`, controller.signal)
    const pids = await waitForHostPids(marker, 'sleep', 1)
    controller.abort()
    expect(codeOf(await running)).toBe('ABORTED')
    expect(await markedSurvivors(marker)).toEqual([])
    expect(pids.length).toBe(1)

    const timedOut = await call(`sleep 100.${uniqueMarker()}`, undefined, 300)
    expect(timedOut.isError ? undefined : (timedOut.value as { timedOut: boolean }).timedOut).toBe(true)
    expect(tempLeftovers()).toEqual([])
  })

  it("the caller's abort during set-up: nothing starts", async () => {
    // A tree big enough that the protection scan is still running when the abort lands.
    for (let i = 0; i < 200; i++) mkdirSync(join(workspace, `d${i}`, 'e'), { recursive: true })
    const { call } = await plugin()
    const marker = uniqueMarker()
    for (const delayMs of [0, 1, 5, 20]) {
      const controller = new AbortController()
      const pending = call(`sleep 100.${marker}`, controller.signal)
      setTimeout(() => controller.abort(), delayMs)
      expect(codeOf(await pending)).toMatch(/^ABORTED/)
    }
    expect(await markedSurvivors(marker)).toEqual([])
    expect(tempLeftovers()).toEqual([])
  })

  it('the sandbox failing to start (no bwrap on PATH)', async () => {
    const { call } = await plugin()
    // Started once with the sandbox available, so the probe is passed.
    expect((await call('true')).isError).toBe(false)
    const saved = process.env.PATH
    const without = pathWithoutRipgrep()
    rmSync(join(without.dir, 'bwrap'), { force: true })
    process.env.PATH = without.path
    try {
      const result = await call('echo should-not-run')
      const stdout = result.isError ? '' : (result.value as { stdout: string }).stdout
      expect(stdout).not.toContain('should-not-run')
    } finally {
      process.env.PATH = saved
      rmSync(without.dir, { recursive: true, force: true })
    }
    expect(tempLeftovers()).toEqual([])
  })

  it('a refused call (protection cannot be computed)', async () => {
    for (let i = 0; i < 30; i++) writeFileSync(join(workspace, `f${i}`), '')
    const { call } = await plugin({ sandbox: { fallback: 'refuse', maxScanEntries: 10 } })
    expect(codeOf(await call('true'))).toBe('BASH_PROTECTION_UNAVAILABLE')
    expect(tempLeftovers()).toEqual([])
  })

  it('disposing the plugin’s cordis context mid-call ends the call ABORTED and leaves no process', async () => {
    const { fiber, call } = await plugin()
    const marker = uniqueMarker()
    const running = call(`sleep 100.${marker} & sleep 100.${marker}; wait`)
    await waitForHostPids(marker, 'sleep', 2)
    await fiber.dispose()
    expect(codeOf(await running)).toBe('ABORTED')
    expect(await markedSurvivors(marker)).toEqual([])
    expect(tempLeftovers()).toEqual([])
  })

  it('disposing an agent scope mid-call ends its call ABORTED and leaves no process', async () => {
    const ctx = new Context()
    await ctx.plugin(ToolRuntime)
    const agent = createScope(ctx, 'agent-dispose')
    await agent.ctx.plugin(bash, { workdir: workspace, killGraceMs: 200, sandbox: { fallback: 'refuse' } })
    const marker = uniqueMarker()
    const running = ctx.tools.execute({
      callId: marker,
      name: 'bash',
      agent: 'agent-dispose',
      arguments: { command: `sleep 100.${marker}`, description: 'lifecycle' },
      signal: new AbortController().signal,
    })
    await waitForHostPids(marker, 'sleep', 1)
    await agent.dispose()
    expect(codeOf(await running)).toBe('ABORTED')
    expect(hostPids(marker)).toEqual([])
    expect(tempLeftovers()).toEqual([])
  })
})

describe('a host process killed by a signal mid-call', () => {
  it('leaves its private tmp behind; the next process removes it', async () => {
    const dead = spawn('sleep', ['0'])
    await new Promise((resolve) => dead.once('close', resolve))
    const orphan = join(privateTmp, `dsh-bash-tmp-${dead.pid}-abcdef`)
    mkdirSync(join(orphan, 'left'), { recursive: true })
    const alive = join(privateTmp, `dsh-bash-tmp-${process.pid}-abcdef`)
    mkdirSync(alive)
    await sweepStalePrivateTmps()
    expect(tempLeftovers()).toEqual([`dsh-bash-tmp-${process.pid}-abcdef`])
    rmSync(alive, { recursive: true })
  })
})

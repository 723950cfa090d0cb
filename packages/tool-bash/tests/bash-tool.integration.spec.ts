import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from '@deepseek-ai/cordis'
import ToolRuntime, { createScope, type ToolExecutionResult } from '@dsh/tools-core'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { BASH_CONFIG_DEFAULTS } from '../src/config'
import * as bash from '../src/index'
import { markedSurvivors, uniqueMarker, waitForHostPids } from './helpers'

let dir: string
let ctx: Context
afterEach(() => rmSync(dir, { recursive: true, force: true }))

let calls = 0
const execute = (args: Record<string, unknown>, signal = new AbortController().signal) =>
  ctx.tools.execute({
    callId: `call-${++calls}`,
    name: 'bash',
    arguments: { description: 'test', ...args },
    signal,
  })

const text = (result: ToolExecutionResult) =>
  result.content.map((part) => (part.type === 'text' ? part.text : '')).join('')

// Every rule holds with the OS sandbox (the default; `fallback: 'refuse'` so a host without it
// fails here instead of passing unsandboxed) and without it.
describe.each([
  ['sandboxed', { fallback: 'refuse' }],
  ['unsandboxed', false],
] as const)('bash tool (%s)', (_mode, sandbox) => {
  beforeEach(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'dsh-bash-tool-')))
    ctx = new Context()
    await ctx.plugin(ToolRuntime)
    await ctx.plugin(bash, {
      workdir: dir,
      killGraceMs: 200,
      maxStdoutBytes: 200,
      maxStderrBytes: 200,
      sandbox,
    })
  })

  it('echo returns stdout as the value and the content', async () => {
    const result = await execute({ command: 'echo hello' })
    expect(result).toMatchObject({
      isError: false,
      value: { stdout: 'hello\n', stderr: '', exitCode: 0, signal: null, truncated: false, timedOut: false },
    })
    expect(text(result)).toBe('hello')
  })

  it('stderr is captured separately and rendered after a [stderr] line', async () => {
    const result = await execute({ command: 'echo out; echo oops >&2' })
    expect(result).toMatchObject({ isError: false, value: { stdout: 'out\n', stderr: 'oops\n' } })
    expect(text(result)).toBe('out\n[stderr]\noops')
  })

  it('a non-zero exit is a normal result rendered with [exit code: N]', async () => {
    const result = await execute({ command: 'echo failing; exit 7' })
    expect(result).toMatchObject({ isError: false, value: { exitCode: 7 } })
    expect(text(result)).toBe('failing\n[exit code: 7]')
  })

  it('output over the cap keeps head and tail with a marker stating the dropped bytes', async () => {
    const result = await execute({ command: 'printf "%01000d" 0' })
    if (result.isError) throw new Error(result.error.message)
    const value = result.value as { stdout: string; truncated: boolean }
    expect(value.truncated).toBe(true)
    expect(value.stdout).toBe(`${'0'.repeat(100)}\n[… 800 bytes truncated …]\n${'0'.repeat(100)}`)
  })

  it('a secret in the host environment is not inherited by the shell', async () => {
    process.env.DSH_TEST_SECRET_TOKEN = 'hunter2'
    process.env.AWS_SECRET_ACCESS_KEY = 'aws-secret'
    try {
      // Lines cut to 24 bytes keep the whole listing under the 200-byte cap.
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash parameter expansion
      const result = await execute({ command: 'echo "${DSH_TEST_SECRET_TOKEN-unset}"; env | cut -c1-24' })
      const stdout = (result as unknown as { value: { stdout: string } }).value.stdout
      expect(stdout.split('\n')[0]).toBe('unset')
      expect(stdout).not.toContain('hunter2')
      expect(stdout).not.toContain('DSH_TEST_SECRET_TOKEN')
      expect(stdout).not.toContain('aws-secret')
      expect(stdout).not.toContain('AWS_SECRET')
      expect(stdout).toContain('PATH=')
    } finally {
      delete process.env.DSH_TEST_SECRET_TOKEN
      delete process.env.AWS_SECRET_ACCESS_KEY
    }
  })

  it('runs in the configured workdir, or in a workdir argument resolved against it', async () => {
    mkdirSync(join(dir, 'sub'))
    expect(await execute({ command: 'pwd' })).toMatchObject({ value: { stdout: `${dir}\n` } })
    expect(await execute({ command: 'pwd', workdir: 'sub' })).toMatchObject({
      value: { stdout: `${join(dir, 'sub')}\n` },
    })
  })

  it('a missing workdir is an isError result with BASH_SPAWN_FAILED', async () => {
    const result = await execute({ command: 'echo hi', workdir: 'nope' })
    expect(result).toMatchObject({
      isError: true,
      error: {
        message: `working directory does not exist: ${join(dir, 'nope')}`,
        info: { name: 'BashSpawnError', code: 'BASH_SPAWN_FAILED' },
      },
    })
  })

  it('abort mid-run kills the whole group, settles after exit and reports ABORTED', async () => {
    const marker = uniqueMarker()
    const controller = new AbortController()
    const pending = execute(
      { command: `sleep 100.${marker} & sleep 100.${marker} & wait` },
      controller.signal,
    )
    await waitForHostPids(marker, 'sleep', 2)
    controller.abort()
    const result = await pending
    expect(result).toMatchObject({ isError: true, error: { info: { code: 'ABORTED' } } })
    expect(await markedSurvivors(marker)).toEqual([])
  })

  it('the timeoutMs argument kills the group and returns a timed-out result', async () => {
    const marker = uniqueMarker()
    const result = await execute({ command: `sleep 100.${marker} & wait`, timeoutMs: 300 })
    expect(result).toMatchObject({
      isError: false,
      value: { timedOut: true, exitCode: null, signal: 'SIGTERM' },
    })
    expect(text(result)).toBe('[timed out after 300ms; process group killed]')
    expect(await markedSurvivors(marker)).toEqual([])
  })

  it('a timeoutMs argument below 1 is INVALID_ARGS', async () => {
    const result = await execute({ command: 'true', timeoutMs: 0 })
    expect(result).toMatchObject({ isError: true, error: { info: { code: 'INVALID_ARGS' } } })
  })

  it('declares the max budget and is exclusive', () => {
    const definition = ctx.tools.get('bash')!
    expect(definition.timeoutMs).toBe(BASH_CONFIG_DEFAULTS.maxTimeoutMs)
    expect(
      ctx.tools.executionMode({
        callId: 'x',
        name: 'bash',
        arguments: { command: 'ls', description: 'list' },
        signal: new AbortController().signal,
      }),
    ).toBe('exclusive')
    expect(ctx.tools.schemas().map((schema) => schema.name)).toContain('bash')
  })

  it('cards: terminal call card; result card derived from args, record and persisted meta', async () => {
    const definition = ctx.tools.get('bash')!
    const args = { command: 'echo hi; exit 2', description: 'greet' }
    expect(definition.presentCall!(args)).toEqual({
      card: 'terminal',
      title: args.command,
      description: 'greet',
      cwd: dir,
    })
    const result = await execute(args)
    expect(result.meta).toEqual({
      output: 'hi',
      exitCode: 2,
      signal: null,
      timedOut: false,
      truncated: false,
    })
    const record = { isError: result.isError, content: result.content }
    expect(definition.presentResult!(args, record, result.meta)).toEqual({
      card: 'terminal',
      title: args.command,
      output: 'hi',
      exitCode: 2,
      signal: null,
    })
  })

  it('registered through an agent scope, bash is visible to that agent only and ends with the scope', async () => {
    const other = new Context()
    await other.plugin(ToolRuntime)
    const agent = createScope(other, 'agent-a')
    await agent.ctx.plugin(bash, { workdir: dir, sandbox })
    expect(other.tools.get('bash')).toBeUndefined()
    expect(other.tools.get('bash', 'agent-a')?.name).toBe('bash')
    await agent.dispose()
    expect(other.tools.get('bash', 'agent-a')).toBeUndefined()
  })
})

import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { BashSpawnError } from '../src/errors'
import { type RunCommandOptions, runCommand } from '../src/run-command'
import { createSandboxWrapper } from '../src/sandbox-wrapper'
import { markedSurvivors, uniqueMarker, waitForHostPids } from './helpers'

let dir: string
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'dsh-bash-run-')))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** A command's options in the temp dir, with small caps and a short kill grace. */
const optionsFor = (command: string, signal: AbortSignal): RunCommandOptions => ({
  command,
  cwd: dir,
  env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  signal,
  timeoutMs: 20_000,
  killGraceMs: 200,
  maxStdoutBytes: 1024,
  maxStderrBytes: 1024,
})

// Every rule holds with and without the OS sandbox.
describe.each([
  ['unsandboxed', false],
  ['sandboxed', true],
] as const)('runCommand (%s)', (_mode, sandboxed) => {
  const run = (command: string, options: Partial<RunCommandOptions> = {}) =>
    runCommand({
      ...optionsFor(command, new AbortController().signal),
      ...(sandboxed
        ? { wrap: createSandboxWrapper({ writableRoots: [dir], denyRead: [homedir()], network: 'none' }) }
        : {}),
      ...options,
    })

  it('captures stdout, stderr and the exit code', async () => {
    const outcome = await run('echo out; echo err >&2; exit 3')
    expect(outcome).toEqual({
      stdout: 'out\n',
      stderr: 'err\n',
      exitCode: 3,
      signal: null,
      truncated: false,
      timedOut: false,
      aborted: false,
    })
  })

  it('runs in the given working directory with the given environment', async () => {
    const outcome = await run('pwd; echo "$ONLY"; env | wc -l', { env: { ONLY: 'yes' } })
    expect(outcome.stdout.split('\n').slice(0, 2)).toEqual([dir, 'yes'])
  })

  it('a missing working directory is a BashSpawnError and nothing runs', async () => {
    await expect(run('echo hi', { cwd: join(dir, 'missing') })).rejects.toBeInstanceOf(BashSpawnError)
  })

  it('a missing shell is a BashSpawnError', async () => {
    await expect(run('echo hi', { shell: join(dir, 'no-such-shell') })).rejects.toThrow(/failed to start/)
  })

  it('caps output and marks the truncation', async () => {
    const outcome = await run('head -c 5000 /dev/zero | tr "\\0" x', { maxStdoutBytes: 100 })
    expect(outcome.truncated).toBe(true)
    expect(outcome.stdout).toContain('[… 4900 bytes truncated …]')
  })

  it('abort kills the whole process group and settles only after exit', async () => {
    const marker = uniqueMarker()
    const controller = new AbortController()
    const pending = run(`sleep 100.${marker} & sleep 100.${marker} & wait`, { signal: controller.signal })
    await waitForHostPids(marker, 'sleep', 2)
    controller.abort()
    const outcome = await pending
    expect(outcome.aborted).toBe(true)
    expect(outcome.signal).toBe('SIGTERM')
    expect(await markedSurvivors(marker)).toEqual([])
  })

  it('its own timeout kills the group and says so', async () => {
    const marker = uniqueMarker()
    const outcome = await run(`sleep 100.${marker} & wait`, { timeoutMs: 300 })
    expect(outcome).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGTERM' })
    expect(await markedSurvivors(marker)).toEqual([])
  })

  it('a child ignoring SIGTERM is killed with SIGKILL after the grace', async () => {
    const marker = uniqueMarker()
    const controller = new AbortController()
    const pending = run(`bash -c 'trap "" TERM; while :; do sleep 0.05; done; : ${marker}' & wait`, {
      signal: controller.signal,
    })
    await waitForHostPids(marker, 'bash', 1)
    controller.abort()
    await pending
    expect(await markedSurvivors(marker)).toEqual([])
  })

  // A group kill misses a process in a session of its own: the sandbox's init (bubblewrap
  // arms its die-with-parent signal late, so an early abort could leave the sandbox running) or
  // a `setsid` child. They are found under the leader and killed by pid.
  it('a process that left the group and ignores SIGTERM is killed too', async () => {
    const marker = uniqueMarker()
    const controller = new AbortController()
    const pending = run(`setsid bash -c 'trap "" TERM; while :; do sleep 0.05; done; : ${marker}' & wait`, {
      signal: controller.signal,
    })
    await waitForHostPids(marker, 'bash', 1)
    controller.abort()
    await pending
    expect(await markedSurvivors(marker)).toEqual([])
  })

  it('background jobs left behind by a finished command do not survive it', async () => {
    const marker = uniqueMarker()
    const outcome = await run(`sleep 100.${marker} & echo done`)
    expect(outcome).toMatchObject({ stdout: 'done\n', exitCode: 0, timedOut: false })
    expect(await markedSurvivors(marker)).toEqual([])
  })

  it('an already-aborted signal starts nothing', async () => {
    const controller = new AbortController()
    controller.abort()
    const outcome = await run(`touch ${join(dir, 'ran')}`, { signal: controller.signal })
    expect(outcome.aborted).toBe(true)
    await expect(import('node:fs/promises').then((fs) => fs.access(join(dir, 'ran')))).rejects.toThrow()
  })
})

describe('runCommand with a sandbox wrapper', () => {
  // bubblewrap's namespace init ignores a SIGTERM from outside its namespace and arms its
  // die-with-parent signal only once its set-up is done: an abort in that window used to leave
  // the whole sandbox running under PID 1. Aborts land at several points of the start.
  it('an abort at any point of the sandbox start leaves nothing running', async () => {
    const sandbox = createSandboxWrapper({ writableRoots: [dir], denyRead: [], network: 'none' })
    for (const delayMs of [0, 1, 2, 4, 8, 16, 32, 64]) {
      const marker = uniqueMarker()
      const controller = new AbortController()
      await runCommand({
        ...optionsFor(
          `bash -c 'trap "" TERM; while :; do sleep 0.05; done; : ${marker}' & wait`,
          controller.signal,
        ),
        wrap: async (request) => {
          const plan = await sandbox(request)
          const start = plan.spawn
          if (start === undefined) throw new Error('the sandbox plan starts its own process')
          return {
            ...plan,
            spawn: (cwd) => {
              const started = start(cwd)
              started.once('spawn', () => setTimeout(() => controller.abort(), delayMs))
              return started
            },
          }
        },
      })
      expect({ delayMs, survivors: await markedSurvivors(marker) }).toEqual({ delayMs, survivors: [] })
    }
  })

  it('an abort while the sandbox is prepared starts nothing and releases the plan (its private TMPDIR)', async () => {
    const controller = new AbortController()
    const sandbox = createSandboxWrapper({ writableRoots: [dir], denyRead: [], network: 'none' })
    let privateTmp: string | undefined
    const outcome = await runCommand({
      ...optionsFor(`touch ${join(dir, 'ran')}`, controller.signal),
      wrap: async (request) => {
        const plan = await sandbox(request)
        privateTmp = plan.env.TMPDIR
        controller.abort()
        return plan
      },
    })
    expect(outcome).toMatchObject({ aborted: true, exitCode: null, signal: null })
    expect(privateTmp).toMatch(/dsh-bash-tmp-/)
    expect(existsSync(privateTmp!)).toBe(false)
    expect(existsSync(join(dir, 'ran'))).toBe(false)
  })
})

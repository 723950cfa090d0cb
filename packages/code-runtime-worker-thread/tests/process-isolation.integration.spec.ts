/**
 * `isolation: 'process'`: each run's worker lives in a fresh Node process. Programs behave as
 * with threads; what a thread cannot contain (off-heap memory, an uninterruptible builtin) ends
 * the run, a fatal V8 error ends only its own process, and no process outlives the runtime.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CodeEngine, createWorkerThreadRuntime, type WorkerThreadRuntime } from '../src/index'
import { ENGINES } from './fixtures/engines'
import { fakeHost, request } from './fixtures/host'

// No warm processes here, so the dispose tests see only their own runtime's processes.
function processRuntime(engine: CodeEngine, computeMs = 5_000): WorkerThreadRuntime {
  return createWorkerThreadRuntime({
    engine,
    isolation: 'process',
    warmWorkers: 0,
    maxOldGenerationSizeMb: 64,
    computeMs,
    maxWallMs: 60_000,
  })
}

/** Run processes (the relay's `-e` source names its boot message) whose parent is this process. */
function runProcesses(): number[] {
  const found: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (ppid === process.pid && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('_boot')) {
        found.push(Number(entry))
      }
    } catch {
      // The process ended while we looked.
    }
  }
  return found
}

describe.each(ENGINES)('process isolation (%s)', (engine) => {
  let runtime: WorkerThreadRuntime
  beforeAll(() => {
    runtime = processRuntime(engine)
  })
  afterAll(() => runtime.dispose())

  it('runs programs with tool calls and logs as threads do', async () => {
    const { host, calls } = fakeHost({ echo: async (args) => args as never })
    const outcome = await runtime.run(
      request('const r: any = await tools.echo({ a: [1, 2] })\nconsole.log("got", r.a.length)\nreturn r', [
        'echo',
      ]),
      host,
    )
    expect(outcome).toEqual({ ok: true, logs: ['got 2'], result: { a: [1, 2] } })
    expect(calls).toEqual([{ name: 'echo', args: { a: [1, 2] } }])
  })

  // The run process compiles the engine's bytes itself (a compiled module cannot cross IPC); the
  // engine's own memory cap holds inside it. Only QuickJS has one: node:vm's off-heap case is
  // "caps off-heap memory" below.
  if (engine === 'quickjs')
    it('keeps the engine memory cap: off-heap memory is an exception', async () => {
      const { host } = fakeHost({})
      const outcome = await runtime.run(
        request(
          'const keep: Uint8Array[] = []\nfor (let i = 0; i < 40; i++) keep.push(new Uint8Array(32 * 1024 * 1024))\nreturn keep.length',
        ),
        host,
      )
      expect(outcome).toMatchObject({
        ok: false,
        kind: 'exception',
        message: expect.stringMatching(/out of memory/),
      })
    })

  it('fails the run at once on arguments the host cannot deserialize', async () => {
    const { host, calls } = fakeHost({ echo: async () => 1 })
    const outcome = await runtime.run(
      request('let v: any = 1\nfor (let i = 0; i < 12000; i++) v = [v]\nreturn await tools.echo({ v })', [
        'echo',
      ]),
      host,
    )
    expect(outcome).toMatchObject({ ok: false, kind: 'exception' })
    expect(calls).toHaveLength(0)
  })

  it('leaves no process behind once disposed', async () => {
    await runtime.whenIdle()
    const before = runProcesses()
    // One warm process, then the one booted to replace it after the run: dispose must end both
    // (and the run's own, if it is still exiting).
    const own = createWorkerThreadRuntime({ engine, isolation: 'process', warmWorkers: 1 })
    const { host } = fakeHost({})
    expect(await own.run(request('return 1'), host)).toMatchObject({ ok: true, result: 1 })
    const owned = runProcesses().filter((pid) => !before.includes(pid))
    expect(owned.length).toBeGreaterThan(0)
    await own.dispose()
    expect(own.stats().liveWorkers).toBe(0)
    expect(runProcesses().filter((pid) => owned.includes(pid))).toEqual([])
  })
})

describe('process isolation contains what a node:vm thread cannot', () => {
  let runtime: WorkerThreadRuntime
  beforeAll(() => {
    runtime = processRuntime('node-vm')
  })
  afterAll(() => runtime.dispose())

  it('ends a run whose engine hits a fatal V8 error as worker-exit; the host lives on', async () => {
    // A small heap: the crash line reaches V8's fatal out-of-memory error after 64 MiB of filling
    // instead of the default heap's gigabytes (the same fatal path, seconds sooner).
    const patient = createWorkerThreadRuntime({
      engine: 'node-vm',
      isolation: 'process',
      warmWorkers: 0,
      computeMs: 120_000,
      maxOldGenerationSizeMb: 64,
    })
    try {
      // The other crash line (`getOwnPropertyNames` of a huge typed array) runs under process
      // isolation in the attack corpus, in a host process of its own: each runs once.
      for (const line of ['new Array(2 ** 27).fill(0)']) {
        const { host } = fakeHost({})
        const outcome = await patient.run(request(line), host)
        expect(outcome).toMatchObject({
          ok: false,
          kind: 'worker-exit',
          message: expect.stringMatching(/SIGABRT|out of memory/),
        })
      }
      const { host } = fakeHost({})
      expect(await patient.run(request('return "alive"'), host)).toMatchObject({ ok: true, result: 'alive' })
    } finally {
      await patient.dispose()
    }
  })

  it("keeps the run's own heap cap: about 94 MiB of arrays end a run capped at 64 MiB", async () => {
    // The run process once started with `--max-old-space-size=128`, a V8 flag for every isolate
    // of the process that overrode the worker's `maxOldGenerationSizeMb`: this program then
    // returned 90 under any cap.
    const { host } = fakeHost({})
    const outcome = await runtime.run(
      request(
        'const keep: number[][] = []\nfor (let i = 0; i < 90; i++) keep.push(new Array(131072).fill(i))\nreturn keep.length',
      ),
      host,
    )
    expect(outcome).toMatchObject({
      ok: false,
      kind: 'worker-exit',
      message: expect.stringMatching(/out of memory \(maxOldGenerationSizeMb: 64\)/),
    })
  })

  it('caps off-heap memory: ArrayBuffers past the process cap end the run', async () => {
    const { host } = fakeHost({})
    const outcome = await runtime.run(
      request(
        'const keep: Uint8Array[] = []\nfor (let i = 0; i < 40; i++) keep.push(new Uint8Array(32 * 1024 * 1024).fill(1))\nreturn keep.length',
      ),
      host,
    )
    // The relay's memory cap or the time budget ends it, whichever the machine reaches first.
    expect(outcome).toMatchObject({ ok: false, kind: expect.stringMatching(/^(worker-exit|timeout)$/) })
  })

  it('kills a program stuck in a builtin that cannot be interrupted', async () => {
    // It only ends on computeMs: a short budget of its own gives the same outcome sooner.
    const brief = processRuntime('node-vm', 250)
    const { host } = fakeHost({})
    const outcome = await brief
      .run(request('const a = new Float64Array(2 ** 25)\nwhile (true) a.sort()'), host)
      .finally(() => brief.dispose())
    expect(outcome).toMatchObject({ ok: false, kind: 'timeout' })
  })
})

/**
 * The host's spin on a run's call slot (`src/run/host-spin.ts`), through the runtime's counters:
 * a program that computes between calls (every spin misses) costs the host a handful of spins,
 * whatever the number of calls; a run never takes more spin time than its share of wall time;
 * no run spins while another is live or when `hostSpinMicros` is 0; and the fences of
 * `HostSpin` on their own (live runs, caught calls per event-loop turn).
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createWorkerThreadRuntime, type WorkerThreadRuntime } from '../src/index'
import { CallSlotReader, createCallSlot } from '../src/protocol/call-slot'
import { MAX_SPIN_BACKOFF } from '../src/protocol/spin'
import {
  createHostSpinMeter,
  HostSpin,
  RUN_SPIN_ALLOWANCE_MICROS,
  RUN_SPIN_SHARE,
  TURN_SPIN_CATCHES,
} from '../src/run/host-spin'
import { fakeHost, request } from './fixtures/host'

let runtime: WorkerThreadRuntime | undefined
afterEach(async () => {
  await runtime?.dispose()
  runtime = undefined
})

const sequential = (calls: number, between = '') =>
  `let sum = 0\nfor (let i = 0; i < ${calls}; i++) { sum += await tools.noop({ i }); ${between} }\nreturn sum`

describe('host spin through the runtime', () => {
  it('backs off from a program that computes between calls: few spins, none caught', async () => {
    runtime = createWorkerThreadRuntime({ warmWorkers: 1, hostSpinMicros: 50 })
    const { host } = fakeHost({ noop: async (args) => (args as { i: number }).i })
    const calls = 200
    // At least a millisecond of guest work after each reply: no spin of 50 µs can see the next call.
    const busy = 'const t = Date.now(); while (Date.now() - t < 2) {}'
    const outcome = await runtime.run(request(sequential(calls, busy), ['noop']), host)
    expect(outcome).toMatchObject({ ok: true, result: (calls * (calls - 1)) / 2 })
    const { hostSpins, hostSpinHits } = runtime.stats()
    // None is caught, unless the host thread was descheduled in the middle of a spin for longer
    // than the guest's work (a loaded machine); each such catch restarts the backoff.
    expect(hostSpinHits).toBeLessThanOrEqual(calls / 20)
    expect(hostSpins).toBeGreaterThan(0)
    // 1, 2, 4, … 64 chances skipped after consecutive misses, then one spin per 65 replies.
    const misses = hostSpins - hostSpinHits
    expect(misses).toBeLessThanOrEqual(7 * (hostSpinHits + 1) + Math.ceil(calls / (MAX_SPIN_BACKOFF + 1)))
  })

  it('keeps a run’s spin time within its share of the run’s wall time', async () => {
    runtime = createWorkerThreadRuntime({ warmWorkers: 1, hostSpinMicros: 1_000 })
    const { host } = fakeHost({ noop: async (args) => (args as { i: number }).i })
    const start = performance.now()
    const outcome = await runtime.run(request(sequential(500), ['noop']), host)
    const elapsedMicros = (performance.now() - start) * 1000
    expect(outcome).toMatchObject({ ok: true })
    const { hostSpins, hostSpinHits, hostSpinMicros } = runtime.stats()
    expect(hostSpinHits).toBeLessThanOrEqual(hostSpins)
    // Checked before each spin, so the last one may overrun by one window.
    expect(hostSpinMicros).toBeLessThanOrEqual(
      RUN_SPIN_ALLOWANCE_MICROS + RUN_SPIN_SHARE * elapsedMicros + 1_000,
    )
  })

  it('never spins with hostSpinMicros 0', async () => {
    runtime = createWorkerThreadRuntime({ warmWorkers: 1, hostSpinMicros: 0 })
    const { host } = fakeHost({ noop: async (args) => (args as { i: number }).i })
    expect(await runtime.run(request(sequential(100), ['noop']), host)).toMatchObject({ ok: true })
    expect(runtime.stats()).toMatchObject({ hostSpins: 0, hostSpinHits: 0, hostSpinMicros: 0 })
  })

  it('never spins while two runs are live', async () => {
    runtime = createWorkerThreadRuntime({ warmWorkers: 2, hostSpinMicros: 1_000 })
    // Lockstep: each call is answered only once both runs have made it, so both stay live
    // through every reply.
    const arrived = new Map<number, Array<() => void>>()
    const noop = (args: unknown) =>
      new Promise<number>((resolve) => {
        const { i } = args as { i: number }
        const waiting = arrived.get(i) ?? []
        waiting.push(() => resolve(i))
        arrived.set(i, waiting)
        if (waiting.length === 2) for (const release of waiting) release()
      })
    const runs = [0, 1].map(() => runtime!.run(request(sequential(50), ['noop']), fakeHost({ noop }).host))
    for (const outcome of await Promise.all(runs)) expect(outcome).toMatchObject({ ok: true })
    expect(runtime.stats().hostSpins).toBe(0)
  })
})

describe('HostSpin fences', () => {
  /** A call slot and a way to write a batch into it (every spin on it then catches at once). */
  function callSlot() {
    const slot = createCallSlot()
    const reader = new CallSlotReader(slot)
    const write = () => Atomics.add(new Int32Array(slot, 0, 1), 0, 1)
    return { reader, write }
  }

  it('spins only while it is the one live run', () => {
    const meter = createHostSpinMeter()
    const first = new HostSpin(10, meter)
    const second = new HostSpin(10, meter)
    const { reader, write } = callSlot()
    write()
    let taken = 0
    expect(first.allowed()).toBe(false)
    first.spinAndTake(reader, () => taken++)
    expect(taken).toBe(0)
    second.end()
    second.end()
    expect(first.allowed()).toBe(true)
    first.end()
    expect(first.allowed()).toBe(false)
    expect(meter.spins).toBe(0)
  })

  it('yields to the event loop after TURN_SPIN_CATCHES caught calls in one turn', async () => {
    const meter = createHostSpinMeter()
    const spin = new HostSpin(10, meter)
    const { reader, write } = callSlot()
    let taken = 0
    const take = () => {
      if (reader.take() !== undefined) taken += 1
    }
    try {
      for (let i = 0; i < TURN_SPIN_CATCHES * 2; i++) {
        write()
        spin.spinAndTake(reader, take)
      }
      expect(taken).toBe(TURN_SPIN_CATCHES)
      expect(meter.hits).toBe(TURN_SPIN_CATCHES)
      await new Promise((resolve) => setImmediate(resolve))
      spin.spinAndTake(reader, take)
      expect(taken).toBe(TURN_SPIN_CATCHES + 1)
    } finally {
      spin.end()
    }
  })
})

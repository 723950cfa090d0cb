/**
 * Spinning on the slots across two real threads (the peer runs the real slot classes): a reply
 * written while the worker spins is caught without a notify or a wake message, and a call
 * written while the host spins is caught there, the worker skipping its notify when it sees the
 * host still spinning (so the host's armed `Atomics.waitAsync` is not woken). Each side writes
 * only once it sees the other side's spin begin (the slot's `looking` / `spinning` word), so the
 * write lands inside the spin window unless a thread is descheduled for all of it: each test
 * still allows a few attempts and needs one catch, and every attempt must deliver either way.
 */
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { buildSync } from 'esbuild'
import { afterEach, describe, expect, it } from 'vitest'
import { runWorkerSlots } from '../src/pool/worker-handle'
import { CallSlotReader, CallSlotWriter, createCallSlot } from '../src/protocol/call-slot'
import {
  createReplySlot,
  MAX_SPIN_MICROS,
  ReplySlotReader,
  ReplySlotWriter,
} from '../src/protocol/reply-slot'
import { AdaptiveSpin } from '../src/protocol/spin'

const ATTEMPTS = 20
/** Attempts that each start a fresh peer (a worker start each). */
const FRESH_PEER_ATTEMPTS = 10
/** How long the host waits, busy, for the worker's spin to begin. */
const SPIN_START_MS = 2_000
/**
 * The host's spin window on the call slot in these tests (the runtime's is far shorter): long
 * enough that a loaded machine schedules the waiting worker inside it. The worker gives up
 * waiting for the spin after twice that and writes anyway, notifying as usual (a miss).
 */
const HOST_SPIN_MICROS = 100_000
/** `Atomics.waitAsync` (ES2024; the package compiles against ES2023's lib). */
const waitAsync = (
  Atomics as unknown as {
    waitAsync(
      array: Int32Array,
      index: number,
      value: number,
      ms: number,
    ): { async: false; value: string } | { async: true; value: Promise<string> }
  }
).waitAsync
// The peer runs the package's own slot modules, bundled as the worker sources are.
const PEER_SOURCE = buildSync({
  entryPoints: [fileURLToPath(new URL('./fixtures/slot-peer.ts', import.meta.url))],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  write: false,
}).outputFiles[0]!.text
let peer: Worker | undefined

afterEach(async () => {
  await peer?.terminate()
  peer = undefined
})

async function startPeer(replySlot: SharedArrayBuffer, callSlot: SharedArrayBuffer): Promise<Worker> {
  const worker = new Worker(PEER_SOURCE, { eval: true, workerData: { replySlot, callSlot } })
  peer = worker
  await next(worker, 'ready')
  return worker
}

/**
 * Busy-wait until the worker marks the reply slot as looked at (it is spinning on it): the
 * slot's `looking` word, the second-to-last Int32 (see reply-slot.ts).
 */
function untilWorkerLooks(slot: SharedArrayBuffer): boolean {
  const looking = new Int32Array(slot, slot.byteLength - 8, 1)
  const until = performance.now() + SPIN_START_MS
  while (Atomics.load(looking, 0) !== 1) if (performance.now() > until) return false
  return true
}

function next(worker: Worker, kind: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: Record<string, unknown>) => {
      if (message.k !== kind) return
      worker.off('message', onMessage)
      worker.off('error', reject)
      resolve(message)
    }
    worker.on('message', onMessage)
    worker.once('error', reject)
  })
}

describe('worker-side spin on the reply slot', () => {
  it('catches a reply written while it spins: no notify, no wake message', async () => {
    // A spin that misses (a host slower than the window, on a loaded machine) backs the reader
    // off for the next waits, so every attempt after a miss gets a fresh slot and peer.
    let caught = 0
    for (let i = 1; i <= FRESH_PEER_ATTEMPTS && caught === 0; i++) {
      await peer?.terminate()
      const slot = createReplySlot(MAX_SPIN_MICROS)
      const worker = await startPeer(slot, createCallSlot())
      const writer = new ReplySlotWriter(slot)
      const waited = next(worker, 'waited')
      worker.postMessage({ k: 'wait', ms: 5_000 })
      // Busy here rather than awaiting a message from it: the worker's 1 ms spin may be over
      // before this thread's event loop hears anything.
      untilWorkerLooks(slot)
      const delivery = writer.offer([i, 0, i, null])
      const result = await waited
      // Delivered whatever the timing (a write before the worker began waiting is seen at once).
      expect(result).toMatchObject({ arrived: true, text: `[${i},0,${i},null]` })
      caught = (result.counts as { hits: number }).hits
      // Caught while spinning: the host neither notified anyone nor must post a wake message.
      if (caught === 1) expect(delivery).toBe('woken')
    }
    expect(caught).toBe(1)
  })

  it('never spins with a window of 0 (the host must wake it as before)', async () => {
    const slot = createReplySlot(0)
    const worker = await startPeer(slot, createCallSlot())
    const waited = next(worker, 'waited')
    worker.postMessage({ k: 'wait', ms: 0 })
    expect(await waited).toMatchObject({ arrived: false, counts: { spins: 0, hits: 0 } })
    // Nobody spins or waits: a write needs a wake message.
    expect(new ReplySlotWriter(slot).offer([1, 0, 1, null])).toBe('needs-wake')
  })

  it('gets the window the runtime is configured with', () => {
    for (const [workerSpinMicros, spins] of [
      [70, 1],
      [0, 0],
    ] as const) {
      const slots = runWorkerSlots({ maxOldGenerationSizeMb: 32, engine: 'quickjs', workerSpinMicros })
      const reader = new ReplySlotReader(slots!.replySlot)
      expect(reader.wait(1)).toBe(false)
      expect(reader.spinCounts).toMatchObject({ spins, hits: 0 })
    }
  })

  it('clamps the window a slot asks for', () => {
    for (const asked of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
      const slot = createReplySlot(asked)
      expect(new ReplySlotWriter(slot).offer([1, 0, 1, null])).toBe('needs-wake')
    }
  })
})

describe('host-side spin on the call slot', () => {
  it('hands endSpin a batch written while the slot was polled, whose writer did not notify', async () => {
    const slot = createCallSlot()
    const reader = new CallSlotReader(slot)
    const writer = new CallSlotWriter(slot)
    const words = new Int32Array(slot, 0, 1)
    expect(reader.spin(new AdaptiveSpin(1)).changed).toBe(false)
    const armed = waitAsync(words, 0, Atomics.load(words, 0), 50)
    expect(writer.offer('[1,"echo",[]]', 1, 0)).toBe(true)
    expect(reader.endSpin()).toBe(true)
    expect(reader.take()?.text).toBe('[1,"echo",[]]')
    expect(armed.async ? await armed.value : armed.value).toBe('timed-out')
    expect(reader.endSpin()).toBe(false)
    // Once the spin has ended, the writer notifies again.
    reader.accept(1)
    const rearmed = waitAsync(words, 0, Atomics.load(words, 0), 5_000)
    expect(writer.offer('[2,"echo",[]]', 2, 0)).toBe(true)
    expect(rearmed.async ? await rearmed.value : rearmed.value).toBe('ok')
  })

  it('catches a call written while it spins, and the worker skips its notify', async () => {
    const callSlot = createCallSlot()
    const worker = await startPeer(createReplySlot(), callSlot)
    const reader = new CallSlotReader(callSlot)
    const words = new Int32Array(callSlot, 0, 1)
    let caught = 0
    let unnotified = 0
    for (let id = 1; id <= ATTEMPTS && (caught === 0 || unnotified === 0); id++) {
      const seen = Atomics.load(words, 0)
      // Armed like the host's watch: resolves 'ok' only if the worker notifies (the timeout is
      // far longer than the worker takes to write, so 'timed-out' means it did not notify).
      const armed = waitAsync(words, 0, seen, 2_000)
      const offered = next(worker, 'offered')
      const armedPeer = next(worker, 'armed')
      worker.postMessage({ k: 'call', text: `[${id},"echo",[]]`, id, ms: (2 * HOST_SPIN_MICROS) / 1000 })
      // The peer is running (busy, waiting for this spin to begin) before the host polls.
      await armedPeer
      const spinner = new AdaptiveSpin(HOST_SPIN_MICROS)
      const spun = reader.spin(spinner)
      const caughtBatch = spun.changed ? reader.take() : undefined
      const late = reader.endSpin()
      const batch = caughtBatch ?? (late ? reader.take() : undefined)
      expect(await offered).toMatchObject({ ok: true })
      expect(batch?.text ?? reader.take()?.text).toBe(`[${id},"echo",[]]`)
      reader.accept(id)
      const woken = armed.async ? await armed.value : armed.value
      // Seen while the host was spinning (not merely on its last look after it stopped).
      caught += spinner.counts.hits
      // A worker that sees the slot still polled skips its notify; the host then always has
      // the batch (seen while spinning, or by endSpin's look after clearing the word).
      if (woken === 'timed-out') {
        expect(spun.changed || late).toBe(true)
        unnotified += 1
      }
    }
    expect(caught).toBeGreaterThan(0)
    expect(unnotified).toBeGreaterThan(0)
  })
})

/**
 * The QuickJS worker on its own (no host watchdog): its interrupt handler stops a hot loop once
 * the engine's busy time passes computeMs, leaving the thread idle; and `worker.terminate()`
 * stops a thread stuck inside a long WebAssembly call.
 */
import { describe, expect, it } from 'vitest'
import { spawnWorkerHandle, type WorkerHandle } from '../src/pool/worker-handle'

/** Poll `predicate` every 20 ms, up to 15 s (the machine may be loaded); false if it never held. */
async function eventually(predicate: () => boolean): Promise<boolean> {
  for (let i = 0; i < 750; i++) {
    if (predicate()) return true
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return predicate()
}

async function startHotLoop(computeMs: number): Promise<WorkerHandle> {
  const handle = spawnWorkerHandle({ engine: 'quickjs', maxOldGenerationSizeMb: 64, computeMs })
  expect(await handle.booted).toEqual({ ok: true })
  handle.worker.postMessage({
    k: 'run',
    code: '(async () => {\nwhile (true) {}\n})',
    names: '[]',
    limit: 1000,
  })
  return handle
}

describe('QuickJS worker', () => {
  it('stops a hot loop from inside the engine once computeMs of busy time is spent', async () => {
    const handle = await startHotLoop(200)
    const base = handle.worker.performance.eventLoopUtilization()
    // Once the engine is interrupted, the thread waits for messages: idle time accumulates.
    const idled = await eventually(() => handle.worker.performance.eventLoopUtilization(base).idle > 100)
    await handle.worker.terminate()
    expect(idled).toBe(true)
  })

  it('is stopped by worker.terminate() while inside a long WebAssembly call', async () => {
    const handle = await startHotLoop(1_000_000)
    const base = handle.worker.performance.eventLoopUtilization()
    expect(await eventually(() => handle.worker.performance.eventLoopUtilization(base).active > 100)).toBe(
      true,
    )
    await handle.worker.terminate()
    expect(await handle.exited).toBe(1)
    expect(handle.hasExited()).toBe(true)
  })
})

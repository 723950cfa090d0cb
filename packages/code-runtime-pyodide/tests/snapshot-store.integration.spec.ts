/**
 * The per-process snapshot maker is owned by the runtimes waiting for it: the last one to leave
 * stops it and waits for its exit, and a stopped maker does not count as a failure (the next
 * runtime starts a new one). A fresh module instance keeps this independent of other spec files,
 * which share the process (and its snapshot) under `isolate: false`.
 */
import { describe, expect, it, vi } from 'vitest'

const options = {
  maxOldGenerationSizeMb: 112,
  maxYoungGenerationSizeMb: 16,
  interpreterLimitBytes: 320 * 1024 * 1024,
}

async function freshStore(): Promise<typeof import('../src/pool/snapshot-store')> {
  vi.resetModules()
  return import('../src/pool/snapshot-store')
}

describe('snapshot store', () => {
  it('the last holder to leave stops the maker; a later holder starts a new one', async () => {
    const store = await freshStore()
    const first = {}
    const second = {}
    const bytes = store.acquireSnapshot(first, options)
    // Two holders share one maker: the first leaving does not stop it.
    const shared = store.acquireSnapshot(second, options)
    await store.releaseSnapshot(first)
    let settled = false
    void shared.then(() => {
      settled = true
    })
    await new Promise((resolve) => setImmediate(resolve))
    expect(settled).toBe(false)
    // The last one leaving stops it (the release resolves once the maker has exited).
    await store.releaseSnapshot(second)
    await expect(bytes).resolves.toBeUndefined()
    await expect(shared).resolves.toBeUndefined()

    // Stopped is not failed: a new holder gets a new maker, still running.
    const third = {}
    const again = store.acquireSnapshot(third, options)
    let againSettled = false
    void again.then(() => {
      againSettled = true
    })
    await new Promise((resolve) => setImmediate(resolve))
    expect(againSettled).toBe(false)
    await store.releaseSnapshot(third)
    await expect(again).resolves.toBeUndefined()
  })
})

import { describe, expect, it } from 'vitest'
import { RunTracker } from '../../src/runtime-kit/index'

function deferred<T = void>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => {
    resolve = r
  })
  return { promise, resolve }
}

describe('RunTracker', () => {
  it('hands the run back unchanged and forgets it once it settles', async () => {
    const tracker = new RunTracker()
    const run = deferred<string>()
    const tracked = tracker.track(run.promise)
    expect(tracked).toBe(run.promise)
    expect(tracker.pending()).toEqual([run.promise])
    run.resolve('done')
    expect(await tracked).toBe('done')
    await Promise.resolve()
    expect(tracker.pending()).toEqual([])
  })

  it('forgets a run that rejects without an unhandled rejection of its own', async () => {
    const tracker = new RunTracker()
    const tracked = tracker.track(Promise.reject(new Error('boom')))
    await expect(tracked).rejects.toThrow('boom')
    await tracker.whenIdle(() => [])
    expect(tracker.pending()).toEqual([])
  })

  it('whenIdle waits for runs and exits, including ones that appear while it waits', async () => {
    const tracker = new RunTracker()
    const first = deferred()
    const late = deferred()
    const exit = deferred()
    const exits = new Set<Promise<void>>([exit.promise])
    tracker.track(first.promise)
    let idle = false
    const waiting = tracker
      .whenIdle(() => exits)
      .then(() => {
        idle = true
      })
    // A run started while whenIdle waits is waited for too.
    tracker.track(late.promise)
    first.resolve()
    exit.resolve()
    exits.clear()
    await new Promise((r) => setImmediate(r))
    expect(idle).toBe(false)
    late.resolve()
    await waiting
    expect(idle).toBe(true)
  })

  it('whenIdle resolves at once when nothing is in flight', async () => {
    let asked = 0
    await new RunTracker().whenIdle(() => {
      asked += 1
      return []
    })
    expect(asked).toBe(1)
  })
})

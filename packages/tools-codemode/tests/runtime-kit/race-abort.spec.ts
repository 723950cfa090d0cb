import { describe, expect, it } from 'vitest'
import { raceAbort } from '../../src/runtime-kit/index'

/** An AbortSignal that counts its live abort listeners. */
function countedSignal() {
  const controller = new AbortController()
  let listeners = 0
  const { signal } = controller
  const add = signal.addEventListener.bind(signal)
  const remove = signal.removeEventListener.bind(signal)
  signal.addEventListener = ((...args: Parameters<typeof add>) => {
    listeners += 1
    add(...args)
  }) as typeof signal.addEventListener
  signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
    listeners -= 1
    remove(...args)
  }) as typeof signal.removeEventListener
  return { controller, signal, listeners: () => listeners }
}

describe('raceAbort', () => {
  it('resolves with the value when it comes first and leaves no listener behind', async () => {
    const a = countedSignal()
    const b = countedSignal()
    expect(await raceAbort(Promise.resolve('booted'), 'aborted', a.signal, b.signal)).toBe('booted')
    expect([a.listeners(), b.listeners()]).toEqual([0, 0])
  })

  it('resolves with the abort value at the first abort, removing every listener', async () => {
    const a = countedSignal()
    const b = countedSignal()
    const waiting = raceAbort(new Promise<string>(() => {}), 'aborted', a.signal, b.signal)
    b.controller.abort()
    expect(await waiting).toBe('aborted')
    expect([a.listeners(), b.listeners()]).toEqual([0, 0])
  })

  it('does not wait at all when a signal has already aborted', async () => {
    expect(await raceAbort(new Promise<string>(() => {}), 'aborted', AbortSignal.abort())).toBe('aborted')
  })
})

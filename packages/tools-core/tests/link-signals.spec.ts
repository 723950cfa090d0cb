import { getEventListeners } from 'node:events'
import { describe, expect, it } from 'vitest'
import { linkSignals } from '../src/index'

const listeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length

describe('linkSignals', () => {
  it('any number of followers add at most one listener to a source, removed with the last follower', () => {
    const source = new AbortController().signal
    const links = Array.from({ length: 500 }, () => linkSignals(source))
    expect(listeners(source)).toBe(1)
    for (const link of links.slice(1)) link.dispose()
    expect(listeners(source)).toBe(1)
    links[0]!.dispose()
    expect(listeners(source)).toBe(0)
  })

  it('follows the first source to abort, with its reason, and detaches from the others', () => {
    const a = new AbortController()
    const b = new AbortController()
    const link = linkSignals(a.signal, b.signal)
    const reason = new Error('stop')
    b.abort(reason)
    expect(link.signal.aborted).toBe(true)
    expect(link.signal.reason).toBe(reason)
    expect(listeners(a.signal)).toBe(0)
    a.abort(new Error('later'))
    expect(link.signal.reason).toBe(reason)
  })

  it('aborts every follower when a shared source aborts', () => {
    const source = new AbortController()
    const links = Array.from({ length: 50 }, () => linkSignals(source.signal))
    source.abort('why')
    expect(links.every((link) => link.signal.aborted && link.signal.reason === 'why')).toBe(true)
  })

  it('an already-aborted source gives an aborted signal and attaches nothing', () => {
    const live = new AbortController().signal
    const dead = AbortSignal.abort('gone')
    const link = linkSignals(live, dead)
    expect(link.signal.aborted).toBe(true)
    expect(link.signal.reason).toBe('gone')
    expect(listeners(live)).toBe(0)
  })

  it('a disposed link no longer follows its source; dispose is idempotent', () => {
    const source = new AbortController()
    const link = linkSignals(source.signal, source.signal)
    link.dispose()
    link.dispose()
    source.abort()
    expect(link.signal.aborted).toBe(false)
  })

  it('a source followed again after its fan-out emptied gets exactly one listener back', () => {
    const source = new AbortController().signal
    linkSignals(source).dispose()
    const again = linkSignals(source)
    expect(listeners(source)).toBe(1)
    again.dispose()
    expect(listeners(source)).toBe(0)
  })
})

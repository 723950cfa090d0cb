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

  it('a follower disposed by an earlier follower’s abort listener is not aborted', () => {
    const source = new AbortController()
    const links = Array.from({ length: 4 }, () => linkSignals(source.signal))
    // Whichever follower aborts first disposes all the others from its listener.
    for (const link of links) {
      link.signal.addEventListener('abort', () => {
        for (const other of links) if (other !== link) other.dispose()
      })
    }
    source.abort('stop')
    expect(links.filter((link) => link.signal.aborted)).toHaveLength(1)
    expect(listeners(source.signal)).toBe(0)
  })

  it('followers joining and leaving in any order keep exactly one listener until the last leaves', () => {
    const source = new AbortController()
    const [a, b, c] = [linkSignals(source.signal), linkSignals(source.signal), linkSignals(source.signal)]
    a.dispose() // the first follower leaves while others remain
    expect(listeners(source.signal)).toBe(1)
    const d = linkSignals(source.signal) // joins the emptied first place
    b.dispose()
    expect(listeners(source.signal)).toBe(1)
    source.abort('why')
    expect([a, b, c, d].map((link) => link.signal.aborted)).toEqual([false, false, true, true])
    expect(c.signal.reason).toBe('why')
    expect(d.signal.reason).toBe('why')
    expect(listeners(source.signal)).toBe(0)
  })

  it('a repeated source is followed once, and aborting it detaches the link from the others', () => {
    const a = new AbortController()
    const b = new AbortController()
    const link = linkSignals(a.signal, b.signal, a.signal)
    expect([listeners(a.signal), listeners(b.signal)]).toEqual([1, 1])
    a.abort('first')
    expect(link.signal.reason).toBe('first')
    expect([listeners(a.signal), listeners(b.signal)]).toEqual([0, 0])
  })

  it('a link without sources never aborts', () => {
    const link = linkSignals()
    link.dispose()
    expect(link.signal.aborted).toBe(false)
  })
})

import { describe, expect, it } from 'vitest'
import { OutputCapture, truncationMarker } from '../src/output-capture'

const capture = (cap: number, ...chunks: string[]) => {
  const c = new OutputCapture(cap)
  for (const chunk of chunks) c.push(Buffer.from(chunk))
  return c.finish()
}

describe('OutputCapture', () => {
  it('keeps output under the cap verbatim', () => {
    expect(capture(10, 'abc', 'def')).toEqual({ text: 'abcdef', totalBytes: 6, droppedBytes: 0 })
  })

  it('keeps output of exactly the cap verbatim, across chunk boundaries', () => {
    expect(capture(10, 'abcd', 'efg', 'hij').text).toBe('abcdefghij')
  })

  it('keeps head and tail and states how many bytes were dropped', () => {
    const out = capture(10, 'aaaaa', 'xxxxxxxxxx', 'zzzzz')
    expect(out.droppedBytes).toBe(10)
    expect(out.text).toBe(`aaaaa${truncationMarker(10)}zzzzz`)
  })

  it('keeps the tail correctly when it spans many small chunks', () => {
    const out = capture(4, ...'0123456789'.split(''))
    expect(out.text).toBe(`01${truncationMarker(6)}89`)
  })

  it('a zero cap keeps nothing but the marker', () => {
    expect(capture(0, 'hello')).toEqual({ text: truncationMarker(5), totalBytes: 5, droppedBytes: 5 })
  })

  it('never splits a UTF-8 character at either cut, counting the bytes it drops', () => {
    // 'é' is 2 bytes; a 6-byte cap keeps 3 + 3 bytes, which would cut inside a character.
    const out = capture(6, 'éééééé')
    expect(out.text).not.toContain('\uFFFD')
    expect(out.text).toBe(`é${truncationMarker(8)}é`)
    expect(out.droppedBytes + Buffer.byteLength('éé')).toBe(12)
  })
})

/**
 * Spinning on a shared word on its own: a window of 0 only looks, a changed word is seen at
 * once, and the adaptive spinner backs off 1, 2, 4, … up to MAX_SPIN_BACKOFF chances after
 * spins that catch nothing, and spins again as soon as a change is seen.
 */
import { describe, expect, it } from 'vitest'
import { AdaptiveSpin, MAX_SPIN_BACKOFF, spinWhileEqual } from '../src/protocol/spin'

const word = () => new Int32Array(new SharedArrayBuffer(4))

describe('spinWhileEqual', () => {
  it('reports a change at once and only looks with a window of 0 or less', () => {
    const words = word()
    expect(spinWhileEqual(words, 0, 0, 0)).toEqual({ changed: false, micros: 0 })
    expect(spinWhileEqual(words, 0, 0, -5)).toEqual({ changed: false, micros: 0 })
    expect(spinWhileEqual(words, 0, 0, Number.NaN)).toEqual({ changed: false, micros: 0 })
    expect(spinWhileEqual(words, 0, 1, 1_000)).toEqual({ changed: true, micros: 0 })
  })

  it('gives up once its window has passed', () => {
    const result = spinWhileEqual(word(), 0, 0, 200)
    expect(result.changed).toBe(false)
    expect(result.micros).toBeGreaterThanOrEqual(200)
  })
})

describe('AdaptiveSpin', () => {
  /** Which of `attempts` chances spun (true) or only looked (false), on a word that never changes. */
  function pattern(spinner: AdaptiveSpin, attempts: number): boolean[] {
    const words = word()
    const spun: boolean[] = []
    for (let i = 0; i < attempts; i++) {
      const before = spinner.counts.spins
      spinner.spin(words, 0, 0)
      spun.push(spinner.counts.spins > before)
    }
    return spun
  }

  it('skips 1, 2, 4, … up to MAX_SPIN_BACKOFF chances after consecutive misses', () => {
    const spinner = new AdaptiveSpin(1)
    const spun = pattern(spinner, 400)
    const spinAt = spun.flatMap((s, i) => (s ? [i] : []))
    const gaps = spinAt.slice(1).map((at, i) => at - spinAt[i]! - 1)
    expect(gaps.slice(0, 8)).toEqual([1, 2, 4, 8, 16, 32, 64, 64])
    expect(Math.max(...gaps)).toBe(MAX_SPIN_BACKOFF)
    expect(spinner.counts).toMatchObject({ spins: spinAt.length, hits: 0 })
    // Misses cost at most one spin per MAX_SPIN_BACKOFF + 1 chances once backed off.
    expect(spinAt.length).toBeLessThanOrEqual(7 + Math.ceil(400 / (MAX_SPIN_BACKOFF + 1)))
  })

  it('ends the backoff on a spin that sees a change, not on a look', () => {
    const spinner = new AdaptiveSpin(1)
    // Spin, skip one, spin: two misses in a row, so the next two chances only look.
    expect(pattern(spinner, 3)).toEqual([true, false, true])
    const words = word()
    words[0] = 1
    // Looks that see the change do not end the backoff…
    expect(spinner.spin(words, 0, 0).changed).toBe(true)
    expect(spinner.spin(words, 0, 0).changed).toBe(true)
    expect(spinner.counts).toMatchObject({ spins: 2, hits: 0 })
    // …a spin that sees it does: after it, a miss skips only one chance again.
    expect(spinner.spin(words, 0, 0).changed).toBe(true)
    expect(spinner.counts).toMatchObject({ spins: 3, hits: 1 })
    expect(pattern(spinner, 3)).toEqual([true, false, true])
  })

  it('never spins with a window of 0, and counts a change seen while spinning as a hit', () => {
    const off = new AdaptiveSpin(0)
    expect(pattern(off, 20).some(Boolean)).toBe(false)
    expect(off.counts).toEqual({ spins: 0, hits: 0, micros: 0 })
    const on = new AdaptiveSpin(50)
    const words = word()
    words[0] = 3
    expect(on.spin(words, 0, 0).changed).toBe(true)
    expect(on.counts).toMatchObject({ spins: 1, hits: 1 })
  })
})

import { describe, expect, it } from 'vitest'
import { createConsole } from '../src/worker/quickjs/guest/console'
import { checkTimerCallback, timerDelay } from '../src/worker/quickjs/guest/timer-args'

describe('the guest parts both kernels share', () => {
  it('console: every method hands its own arguments to emit, and the object is frozen', () => {
    const seen: unknown[][] = []
    const console = createConsole((args) => seen.push(args)) as Record<string, (...args: unknown[]) => void>
    for (const method of ['log', 'info', 'warn', 'error', 'debug']) console[method]?.(method, 1)
    expect(seen).toEqual([
      ['log', 1],
      ['info', 1],
      ['warn', 1],
      ['error', 1],
      ['debug', 1],
    ])
    expect(Object.isFrozen(console)).toBe(true)
  })

  it('timer delays below 1 ms, not numbers, or past the 32-bit range become 1 ms', () => {
    for (const delay of [undefined, null, 0, -5, 0.5, Number.NaN, 'x', {}, 2147483648, Infinity]) {
      expect(timerDelay(delay)).toBe(1)
    }
    expect(timerDelay(1)).toBe(1)
    expect(timerDelay('250')).toBe(250)
    expect(timerDelay(2147483647)).toBe(2147483647)
  })

  it('a timer callback that is not a function is a TypeError with Node wording', () => {
    for (const callback of [undefined, 'code', 1, {}]) {
      expect(() => checkTimerCallback(callback)).toThrow(
        new TypeError('The "callback" argument must be of type function'),
      )
    }
    expect(() => checkTimerCallback(() => {})).not.toThrow()
  })
})

import { describe, expect, it } from 'vitest'
import { maxReplyUnits, replyFor } from '../src/run/reply-for'
import type { JsonValue, ResolvedPyodideRuntimeConfig } from '../src/types'

const call = { id: 7, name: 'tool', argsText: '{}' }
const MAX = 100

/** A value of `2 ** levels` leaves in a few hundred bytes: every level shares the one below. */
function dagBomb(levels: number): JsonValue {
  let value: JsonValue = ['x']
  for (let i = 0; i < levels; i++) value = [value, value]
  return value
}

const fulfilled = (value: unknown): PromiseSettledResult<JsonValue> => ({
  status: 'fulfilled',
  value: value as JsonValue,
})
const rejected = (reason: unknown): PromiseSettledResult<JsonValue> => ({ status: 'rejected', reason })

describe('replyFor', () => {
  it('answers a value within the cap with its JSON text, up to exactly the cap', () => {
    expect(replyFor(call, fulfilled({ a: [1, 'b'] }), MAX)).toEqual({
      k: 'res',
      i: 7,
      ok: true,
      a: '{"a":[1,"b"]}',
      b: null,
    })
    const exact = 'x'.repeat(MAX - 2)
    expect(replyFor(call, fulfilled(exact), MAX)).toMatchObject({ ok: true, a: JSON.stringify(exact) })
  })

  it.each([
    ['a string one unit over', 'x'.repeat(MAX - 1), /: more than 100 characters, at most 100 /],
    ['a huge string', 'x'.repeat(10_000_000), /: more than 100 characters, at most 100 /],
    ['a shared-reference bomb', dagBomb(1_000), /: more than 100 characters/],
    ['a wide array', Array.from({ length: 1_000_000 }, () => 0), /: more than 100 characters/],
    ['text grown by escapes the count cannot see', '\u0001'.repeat(40), /: 242 characters, at most 100 /],
  ])('refuses %s with a clear error, never sending it', (_label, value, size) => {
    const reply = replyFor(call, fulfilled(value), MAX)
    expect(reply).toMatchObject({ k: 'res', i: 7, ok: false, a: 'tool' })
    expect(reply.b).toMatch(/^the result of tool is too large for the program/)
    expect(reply.b).toMatch(size)
  })

  it('refuses a cyclic value as too large (its text would never end)', () => {
    const cycle: unknown[] = []
    cycle.push(cycle)
    expect(replyFor(call, fulfilled(cycle), MAX).b).toMatch(/too large for the program: more than 100/)
  })

  it('answers a non-JSON value within the cap as not JSON', () => {
    expect(replyFor(call, fulfilled(10n), MAX)).toMatchObject({
      ok: false,
      b: 'tool returned a value that is not JSON',
    })
  })

  it("cuts a failure's message and tool name to the cap, saying how long they were", () => {
    const reply = replyFor(call, rejected({ toolName: 'n'.repeat(500), message: 'm'.repeat(1_000_000) }), MAX)
    expect(reply.ok).toBe(false)
    expect(reply.a).toHaveLength(MAX)
    expect(reply.a).toMatch(/^n+ … \(cut from 500 characters/)
    expect(reply.b).toHaveLength(MAX)
    expect(reply.b).toMatch(/^m+ … \(cut from 1000000 characters: the program may receive at most 100\)$/)
    expect(replyFor(call, rejected(new Error('denied')), MAX)).toMatchObject({ a: 'tool', b: 'denied' })
  })

  it("caps replies at a quarter of the worker heap's part of maxMemoryMb", () => {
    const config = {
      maxMemoryMb: 512,
      maxOldGenerationSizeMb: 256,
      maxOutputBytes: 64 * 1024 * 1024,
    } as ResolvedPyodideRuntimeConfig
    // 512 MiB: a 128 MiB heap share, 16 MiB of it young generation.
    expect(maxReplyUnits(config)).toBe(28 * 1024 * 1024)
    expect(maxReplyUnits({ ...config, maxMemoryMb: 128 })).toBe(7 * 1024 * 1024)
    expect(maxReplyUnits({ ...config, maxOldGenerationSizeMb: 64 })).toBe(16 * 1024 * 1024)
  })
})

describe('replyFor with a hostile host value', () => {
  it.each([
    [
      'a throwing getter',
      () => ({
        get a(): never {
          throw new Error('boom')
        },
      }),
    ],
    [
      'a throwing getter below a shared part',
      () => {
        const part = {
          get a(): never {
            throw new Error('boom')
          },
        }
        return [part, part]
      },
    ],
    [
      'a proxy whose keys trap throws',
      () =>
        new Proxy(
          {},
          {
            ownKeys: () => {
              throw new Error('boom')
            },
          },
        ),
    ],
  ])('answers %s as not JSON instead of throwing', (_label, make) => {
    expect(() => replyFor(call, fulfilled(make()), MAX)).not.toThrow()
    expect(replyFor(call, fulfilled(make()), MAX)).toMatchObject({
      ok: false,
      a: 'tool',
      b: 'tool returned a value that is not JSON',
    })
  })
})

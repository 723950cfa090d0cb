import type { CallCursor } from '@dsh/tools-codemode/runtime-kit'
import { describe, expect, it } from 'vitest'
import { parseWorkerMessage } from '../src/protocol/parse-worker-message'

const cursor = (names: string[] = ['read', 'constructor']): CallCursor => ({
  nextCallId: 1,
  allowed: new Set(names),
})

describe('parseWorkerMessage (the port is hostile)', () => {
  it('rebuilds a valid call batch with only the checked fields', () => {
    const state = cursor()
    const raw = { k: 'calls', c: [1, 'read', { p: 1 }, 2, 'read', null], extra: 'dropped' }
    const parsed = parseWorkerMessage(raw, state)
    expect(parsed).toEqual({
      ok: true,
      message: {
        kind: 'calls',
        calls: [
          { id: 1, name: 'read', args: { p: 1 } },
          { id: 2, name: 'read', args: null },
        ],
      },
    })
    expect(state.nextCallId).toBe(3)
  })

  it('refuses non-objects, arrays and unknown types', () => {
    for (const raw of [null, 1, 'log', [], { k: 'eval' }, { k: 'res', r: [] }, {}]) {
      expect(parseWorkerMessage(raw, cursor()).ok).toBe(false)
    }
  })

  it('refuses a duplicate or out-of-sequence call id, so no id is answered twice', () => {
    const state = cursor()
    expect(parseWorkerMessage({ k: 'calls', c: [1, 'read', {}] }, state).ok).toBe(true)
    expect(parseWorkerMessage({ k: 'calls', c: [1, 'read', {}] }, state).ok).toBe(false)
    expect(parseWorkerMessage({ k: 'calls', c: [3, 'read', {}] }, state).ok).toBe(false)
    expect(parseWorkerMessage({ k: 'calls', c: [2, 'read', {}, 2, 'read', {}] }, state).ok).toBe(false)
    expect(parseWorkerMessage({ k: 'calls', c: ['2', 'read', {}] }, state).ok).toBe(false)
  })

  it('refuses non-string names and malformed batches', () => {
    expect(parseWorkerMessage({ k: 'calls', c: [1, 42, {}] }, cursor()).ok).toBe(false)
    expect(parseWorkerMessage({ k: 'calls', c: [1, 'read'] }, cursor()).ok).toBe(false)
    expect(parseWorkerMessage({ k: 'calls', c: [] }, cursor()).ok).toBe(false)
    expect(parseWorkerMessage({ k: 'calls', c: 'x' }, cursor()).ok).toBe(false)
  })

  it('resolves binding names as members of the allowed set only, never inherited properties', () => {
    for (const name of ['__proto__', 'hasOwnProperty', 'toString', 'valueOf', 'write']) {
      expect(parseWorkerMessage({ k: 'calls', c: [1, name, {}] }, cursor()).ok).toBe(false)
    }
    expect(parseWorkerMessage({ k: 'calls', c: [1, 'constructor', {}] }, cursor()).ok).toBe(true)
    expect(parseWorkerMessage({ k: 'calls', c: [1, '__proto__', {}] }, cursor(['__proto__'])).ok).toBe(true)
  })

  it('ignores inherited message fields', () => {
    const forged = Object.create({ k: 'log', l: 'inherited' }) as object
    expect(parseWorkerMessage(forged, cursor()).ok).toBe(false)
  })

  it('checks batched log lines', () => {
    expect(parseWorkerMessage({ k: 'logs', l: ['a', '', 'c'] }, cursor())).toEqual({
      ok: true,
      message: { kind: 'log', lines: ['a', '', 'c'] },
    })
    for (const l of [[], 'a', ['a', 1], new Array(3), { 0: 'a', length: 1 }]) {
      expect(parseWorkerMessage({ k: 'logs', l }, cursor()).ok).toBe(false)
    }
  })

  it('checks log lines and completions', () => {
    expect(parseWorkerMessage({ k: 'log', l: 'hi' }, cursor())).toEqual({
      ok: true,
      message: { kind: 'log', lines: ['hi'] },
    })
    expect(parseWorkerMessage({ k: 'log', l: { toString: () => 'x' } }, cursor()).ok).toBe(false)
    expect(parseWorkerMessage({ k: 'done', s: 0 }, cursor())).toEqual({
      ok: true,
      message: { kind: 'done', status: 0, payload: undefined },
    })
    expect(parseWorkerMessage({ k: 'done', s: 0, v: '1' }, cursor()).ok).toBe(true)
    expect(parseWorkerMessage({ k: 'done', s: 1 }, cursor()).ok).toBe(false)
    expect(parseWorkerMessage({ k: 'done', s: 9, v: 'x' }, cursor()).ok).toBe(false)
    expect(parseWorkerMessage({ k: 'done', s: 0, v: 1 }, cursor()).ok).toBe(false)
  })
})

describe('log batches', () => {
  it('reads a batch only up to one line past maxLogLines, however long it is', () => {
    let reads = 0
    const lines = new Proxy(new Array(10_000_000).fill(''), {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++
        return Reflect.get(target, key, receiver)
      },
    })
    const parsed = parseWorkerMessage({ k: 'logs', l: lines }, cursor([]), 1_000)
    expect(parsed.ok && parsed.message.kind === 'log' && parsed.message.lines.length).toBe(1_001)
    expect(reads).toBe(1_001)
  })
})

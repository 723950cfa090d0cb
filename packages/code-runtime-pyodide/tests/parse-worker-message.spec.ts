import { type CallCursor, DoneStatus, utf8LineCost as lineCost } from '@dsh/tools-codemode/runtime-kit'
import { describe, expect, it } from 'vitest'
import { parseWorkerMessage } from '../src/protocol/parse-worker-message'

const cursor = (): CallCursor => ({ nextCallId: 1, allowed: new Set(['echo']) })

describe('worker messages are shape-checked and rebuilt', () => {
  it('accepts calls strictly in sequence and only for allowed bindings', () => {
    const state = cursor()
    expect(parseWorkerMessage({ k: 'call', i: 1, n: 'echo', a: '{}' }, state)).toEqual({
      ok: true,
      message: { kind: 'call', call: { id: 1, name: 'echo', argsText: '{}' } },
    })
    expect(parseWorkerMessage({ k: 'call', i: 1, n: 'echo', a: '{}' }, state)).toMatchObject({ ok: false })
    expect(parseWorkerMessage({ k: 'call', i: 3, n: 'echo', a: '{}' }, state)).toMatchObject({ ok: false })
    expect(parseWorkerMessage({ k: 'call', i: 2, n: 'toString', a: '{}' }, state)).toMatchObject({
      ok: false,
    })
    expect(parseWorkerMessage({ k: 'call', i: 2, n: 'echo', a: {} }, state)).toMatchObject({ ok: false })
    expect(state.nextCallId).toBe(2)
  })

  it('refuses inherited fields, unknown kinds and malformed completions', () => {
    const inherited = Object.assign(Object.create({ k: 'log', l: 'x' }) as object, {})
    for (const raw of [
      null,
      'log',
      [],
      inherited,
      { k: 'log', l: 5 },
      { k: 'nope' },
      { k: 'done', s: 42 },
      { k: 'done', s: DoneStatus.EXCEPTION },
      { k: 'done', s: DoneStatus.OK, v: {} },
    ]) {
      expect(parseWorkerMessage(raw, cursor()).ok, JSON.stringify(raw)).toBe(false)
    }
  })

  it('rebuilds accepted messages without extra fields', () => {
    const parsed = parseWorkerMessage({ k: 'done', s: DoneStatus.OK, v: '1', extra: 'x' }, cursor())
    expect(parsed).toEqual({ ok: true, message: { kind: 'done', status: DoneStatus.OK, payload: '1' } })
  })

  it('charges every log line at least one byte', () => {
    expect(lineCost('')).toBe(1)
    expect(lineCost('ab')).toBe(2)
    expect(lineCost('é')).toBe(2)
  })
})

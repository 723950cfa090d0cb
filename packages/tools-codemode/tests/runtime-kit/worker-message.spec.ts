import { describe, expect, it } from 'vitest'
import {
  callIssue,
  createCallCursor,
  DoneStatus,
  isMessageRecord,
  ownField,
  parseCompletion,
  parseDoneMessage,
  refuseMessage,
} from '../../src/runtime-kit/index'

describe('worker message checks', () => {
  it('reads own fields only, and never runs an inherited getter', () => {
    let getterRuns = 0
    const proto = {
      get k() {
        getterRuns += 1
        return 'done'
      },
    }
    const message = Object.assign(Object.create(proto) as object, { l: 'line' })
    expect(ownField(message, 'k')).toBeUndefined()
    expect(ownField(message, 'l')).toBe('line')
    expect(ownField({}, 'constructor')).toBeUndefined()
    expect(getterRuns).toBe(0)
  })

  it('accepts records, not arrays, null or primitives', () => {
    expect(isMessageRecord({})).toBe(true)
    for (const bad of [null, [], 'x', 1, undefined]) expect(isMessageRecord(bad)).toBe(false)
  })

  it('accepts a call only with the next id and an allowed own name', () => {
    const cursor = createCallCursor(['echo'])
    expect(callIssue(cursor, 1, 'echo')).toBeUndefined()
    expect(callIssue(cursor, 2, 'echo')).toBe('call id 2 is out of sequence (expected 1)')
    expect(callIssue(cursor, '1', 'echo')).toBe('call id 1 is out of sequence (expected 1)')
    expect(callIssue(cursor, 1, 7)).toBe('a binding name must be a string')
    for (const inherited of ['toString', '__proto__', 'constructor', 'hasOwnProperty']) {
      expect(callIssue(cursor, 1, inherited)).toBe(`binding "${inherited}" is not allowed in this run`)
    }
    // A batch checks its later calls against the id it expects next; the cursor is untouched.
    expect(callIssue(cursor, 3, 'echo', 3)).toBeUndefined()
    expect(cursor.nextCallId).toBe(1)
  })

  it('checks a completion: known status, text payload, and a message for every failure', () => {
    expect(parseCompletion(DoneStatus.OK, undefined)).toEqual({
      ok: true,
      status: DoneStatus.OK,
      payload: undefined,
    })
    expect(parseCompletion(DoneStatus.OK, '1')).toMatchObject({ ok: true, payload: '1' })
    expect(parseCompletion(DoneStatus.EXCEPTION, 'boom')).toMatchObject({ ok: true, status: 1 })
    expect(parseCompletion(9, 'x')).toEqual({ ok: false, reason: 'unknown completion status' })
    expect(parseCompletion('0', 'x')).toEqual({ ok: false, reason: 'unknown completion status' })
    expect(parseCompletion(DoneStatus.OK, 5)).toEqual({
      ok: false,
      reason: 'a completion payload must be a string',
    })
    for (const failed of [DoneStatus.EXCEPTION, DoneStatus.INVALID_OUTPUT, DoneStatus.OUTPUT_LIMIT]) {
      expect(parseCompletion(failed, undefined)).toEqual({
        ok: false,
        reason: 'a failed completion must carry a message',
      })
    }
  })
})

describe('parseDoneMessage / refuseMessage', () => {
  it('rebuilds a checked completion from own fields only', () => {
    expect(parseDoneMessage({ k: 'done', s: DoneStatus.OK, v: '1' })).toEqual({
      ok: true,
      message: { kind: 'done', status: DoneStatus.OK, payload: '1' },
    })
    const inherited = Object.create({ s: DoneStatus.OK, v: '1' }) as object
    expect(parseDoneMessage(inherited)).toEqual({ ok: false, reason: 'unknown completion status' })
  })

  it('refuses every malformed completion with the completion check reason', () => {
    for (const raw of [{ s: 'nope' }, { s: DoneStatus.OK, v: 3 }, { s: DoneStatus.EXCEPTION }]) {
      const parsed = parseDoneMessage(raw)
      expect(parsed.ok).toBe(false)
      if (!parsed.ok) expect(parsed.reason).toBe(parseCompletionReason(raw))
    }
  })

  it('refuseMessage is a plain refusal', () => {
    expect(refuseMessage('why')).toEqual({ ok: false, reason: 'why' })
  })
})

function parseCompletionReason(raw: { s?: unknown; v?: unknown }): string | undefined {
  const done = parseCompletion(raw.s, raw.v)
  return done.ok ? undefined : done.reason
}

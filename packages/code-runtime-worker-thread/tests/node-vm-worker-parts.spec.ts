/**
 * The node:vm worker's privileged-side modules driven in-process: log accounting and batching,
 * call numbering and batching, reading host messages and shaping the completion message.
 */
import { describe, expect, it } from 'vitest'
import { CallOutbox, cloneFailure } from '../src/worker/node-vm/call-outbox'
import { completionMessage, forEachReply, readRunRequest } from '../src/worker/node-vm/host-messages'
import { EAGER_LINES, LOG_BATCH_LINES, LogAccount } from '../src/worker/node-vm/log-account'

function logAccount(byteLimit = 1e9, lineLimit = Number.POSITIVE_INFINITY) {
  const posted: Array<{ k: string; l: unknown }> = []
  const turnEnds: Array<() => void> = []
  const logs = new LogAccount({
    post: (message) => posted.push(message),
    endOfTurn: (callback) => turnEnds.push(callback),
  })
  logs.limit(byteLimit, lineLimit)
  const endTurn = () => {
    for (const callback of turnEnds.splice(0)) callback()
  }
  return { logs, posted, endTurn }
}

describe('LogAccount', () => {
  it('posts the first lines of a turn at once and batches the rest until the turn ends', () => {
    const { logs, posted, endTurn } = logAccount()
    for (let i = 0; i < EAGER_LINES + 3; i++) expect(logs.add(String(i))).toBeUndefined()
    expect(posted).toHaveLength(EAGER_LINES)
    expect(posted.every((message) => message.k === 'log')).toBe(true)
    endTurn()
    expect(posted.at(-1)).toEqual({
      k: 'logs',
      l: [String(EAGER_LINES), String(EAGER_LINES + 1), String(EAGER_LINES + 2)],
    })
    // A new turn posts eagerly again.
    logs.add('next turn')
    expect(posted.at(-1)).toEqual({ k: 'log', l: 'next turn' })
  })

  it('posts a full batch without waiting for the turn to end, and nothing after close', () => {
    const { logs, posted, endTurn } = logAccount()
    for (let i = 0; i < EAGER_LINES + LOG_BATCH_LINES; i++) logs.add('x')
    expect(posted).toHaveLength(EAGER_LINES + 1)
    expect(posted.at(-1)?.l).toHaveLength(LOG_BATCH_LINES)
    logs.add('pending')
    logs.close()
    endTurn()
    expect(posted).toHaveLength(EAGER_LINES + 1)
    logs.flush()
    expect(posted.at(-1)).toEqual({ k: 'logs', l: ['pending'] })
  })

  it('charges each line its UTF-8 bytes plus one and fails past either limit', () => {
    const bytes = logAccount(5)
    expect(bytes.logs.add('')).toBeUndefined()
    expect(bytes.logs.add('é')).toBeUndefined()
    expect(bytes.logs.bytes).toBe(4)
    expect(bytes.logs.add('ab')).toBe('output exceeded maxOutputBytes (5 bytes)')
    const lines = logAccount(1e9, 2)
    lines.logs.add('a')
    lines.logs.add('b')
    expect(lines.logs.add('c')).toBe('output exceeded maxLogLines (2 lines)')
    expect(lines.posted.map((message) => message.l)).toEqual(['a', 'b'])
  })
})

describe('CallOutbox', () => {
  function outbox() {
    const posted: Array<{ k: string; c: unknown[] }> = []
    const microtasks: Array<() => void> = []
    let logFlushes = 0
    const calls = new CallOutbox({
      post: (message) => posted.push(message),
      endOfMicrotasks: (callback) => microtasks.push(callback),
      beforePost: () => {
        logFlushes += 1
      },
      clone: structuredClone,
    })
    const endMicrotasks = () => {
      for (const callback of microtasks.splice(0)) callback()
    }
    return { calls, posted, endMicrotasks, logFlushes: () => logFlushes }
  }

  it('posts a lone call at once and batches calls made while others are outstanding', () => {
    const { calls, posted, endMicrotasks, logFlushes } = outbox()
    const args = { n: 1 }
    expect(calls.call('a', args)).toBe(1)
    expect(posted).toEqual([{ k: 'calls', c: [1, 'a', args] }])
    expect(calls.call('b', { n: 2 })).toBe(2)
    expect(calls.call('c', { n: 3 })).toBe(3)
    expect(posted).toHaveLength(1)
    endMicrotasks()
    expect(posted[1]).toEqual({ k: 'calls', c: [2, 'b', { n: 2 }, 3, 'c', { n: 3 }] })
    expect(logFlushes()).toBe(2)
    expect(calls.outstanding).toBe(3)
    calls.answered()
    calls.answered()
    calls.answered()
    calls.answered()
    expect(calls.outstanding).toBe(0)
  })

  it('snapshots batched arguments when the call is made', () => {
    const { calls, posted, endMicrotasks } = outbox()
    calls.call('a', 1)
    const args = { n: 1 }
    calls.call('b', args)
    args.n = 2
    endMicrotasks()
    expect(posted[1]?.c).toEqual([2, 'b', { n: 1 }])
  })

  it('refuses uncloneable arguments, bad names, and every call after close', () => {
    const { calls, posted, endMicrotasks } = outbox()
    calls.call('a', 1)
    expect(calls.call('b', () => 1)).toMatch(/^arguments for b are not JSON-cloneable: /)
    expect(calls.call(7, {})).toBe('invalid binding name')
    calls.call('c', 3)
    calls.close()
    endMicrotasks()
    expect(posted).toHaveLength(1)
    expect(calls.call('d', 4)).toBe('the run has ended')
    expect(cloneFailure('x', null)).toBe('arguments for x are not JSON-cloneable: value could not be cloned')
  })

  it('checks the copy of every call, lone or batched, and sends what it checked', () => {
    const checked: unknown[] = []
    const posted: Array<{ k: string; c: unknown[] }> = []
    const microtasks: Array<() => void> = []
    const calls = new CallOutbox({
      post: (message) => posted.push(message),
      endOfMicrotasks: (callback) => microtasks.push(callback),
      beforePost: () => {},
      clone: structuredClone,
      check: (name, copy) => {
        checked.push(copy)
        return name === 'big' ? 'too many values' : undefined
      },
    })
    const args = { n: 1 }
    expect(calls.call('big', args)).toBe('too many values')
    expect(calls.call('a', args)).toBe(1)
    expect(calls.call('big', args)).toBe('too many values')
    expect(calls.call('b', args)).toBe(2)
    for (const callback of microtasks.splice(0)) callback()
    expect(checked).toHaveLength(4)
    expect(checked[1]).not.toBe(args)
    expect(posted).toEqual([
      { k: 'calls', c: [1, 'a', checked[1]] },
      { k: 'calls', c: [2, 'b', checked[3]] },
    ])
  })
})

describe('host messages', () => {
  it('reads a run request and refuses a malformed one, keeping the limits it carried', () => {
    expect(
      readRunRequest({ k: 'run', code: 'c', names: '[]', limit: 10, lines: 2, nodes: 5, depth: 3 }),
    ).toEqual({
      ok: true,
      code: 'c',
      names: '[]',
      byteLimit: 10,
      lineLimit: 2,
      valueLimits: { maxValueNodes: 5, maxValueDepth: 3 },
    })
    expect(readRunRequest({ k: 'run', code: 1, limit: 'x', nodes: -1 })).toEqual({
      ok: false,
      byteLimit: 0,
      lineLimit: Number.POSITIVE_INFINITY,
      valueLimits: { maxValueNodes: 20_000, maxValueDepth: 100 },
      message: 'malformed run request',
    })
  })

  it('counts every reply and settles only those whose values are primitives', () => {
    const settled: unknown[] = []
    let answered = 0
    const count = forEachReply(
      [1, 0, 'a', null, 2, 1, { evil: true }, null, 3, 2, 't', 'm', 4],
      () => {
        answered += 1
      },
      (...reply) => settled.push(reply),
    )
    expect([count, answered]).toEqual([3, 3])
    expect(settled).toEqual([
      [1, 0, 'a', null],
      [3, 2, 't', 'm'],
    ])
    expect(
      forEachReply(
        'not a batch',
        () => {},
        () => {},
      ),
    ).toBe(0)
  })

  it('shapes the completion: unknown statuses, missing messages, and payloads past the byte limit', () => {
    expect(completionMessage(0, '1', 0, 10)).toEqual({ k: 'done', s: 0, v: '1' })
    expect(completionMessage(0, undefined, 0, 10)).toEqual({ k: 'done', s: 0, v: undefined })
    expect(completionMessage(9, undefined, 0, 100)).toEqual({ k: 'done', s: 1, v: 'the run failed' })
    expect(completionMessage(0, '12345', 6, 10)).toEqual({
      k: 'done',
      s: 3,
      v: 'result exceeded maxOutputBytes (10 bytes)',
    })
    expect(completionMessage(1, 'Error: long', 0, 5)).toEqual({
      k: 'done',
      s: 3,
      v: 'failure message exceeded maxOutputBytes (5 bytes)',
    })
  })
})

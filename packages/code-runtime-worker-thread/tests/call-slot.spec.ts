/**
 * The call slot and the call-batch text on their own: when the worker may write the slot (only
 * once the host accepted every earlier call, and only what fits), what the host takes, that a
 * watch delivers every batch once and its stop releases the wait, and how the host reads batch
 * text — nesting is measured outside strings only, too-deep text is unreadable rather than a
 * protocol violation, and every malformed shape is refused without throwing.
 */
import { describe, expect, it } from 'vitest'
import {
  callBatchEntry,
  callBatchText,
  MAX_CALL_ARGUMENT_DEPTH,
  parseCallBatch,
} from '../src/protocol/call-batch'
import { CALL_SLOT_BYTES, CallSlotReader, CallSlotWriter, createCallSlot } from '../src/protocol/call-slot'
import { parseCallText } from '../src/protocol/parse-worker-message'

const batchOf = (first: number, count: number) =>
  callBatchText(Array.from({ length: count }, (_, i) => callBatchEntry(first + i, 'echo', `{"i":${i}}`)))

describe('call slot', () => {
  it('takes a batch once, and lets the worker write again only after the host accepted it', () => {
    const slot = createCallSlot()
    const writer = new CallSlotWriter(slot)
    const reader = new CallSlotReader(slot)
    expect(reader.take()).toBeUndefined()
    expect(writer.offer(batchOf(1, 2), 1, 0)).toBe(true)
    // Calls 1–2 are not accepted yet: call 3 must travel as a message.
    expect(writer.offer(batchOf(3, 1), 3, 0)).toBe(false)
    expect(reader.take()).toEqual({ text: batchOf(1, 2), after: 0 })
    expect(reader.take()).toBeUndefined()
    expect(writer.offer(batchOf(3, 1), 3, 0)).toBe(false)
    reader.accept(2)
    expect(writer.offer(batchOf(3, 1), 3, 0)).toBe(true)
    expect(reader.take()).toEqual({ text: batchOf(3, 1), after: 0 })
    // A batch that does not start right after the accepted id never enters the slot.
    reader.accept(3)
    expect(writer.offer(batchOf(5, 1), 5, 0)).toBe(false)
  })

  it('refuses text larger than the slot, counting UTF-8 bytes', () => {
    const slot = createCallSlot()
    const writer = new CallSlotWriter(slot)
    const reader = new CallSlotReader(slot)
    for (const text of ['x'.repeat(CALL_SLOT_BYTES + 1), '€'.repeat(CALL_SLOT_BYTES / 3 + 1)]) {
      expect(writer.offer(text, 1, 0)).toBe(false)
      expect(reader.take()).toBeUndefined()
    }
    const fits = '€'.repeat(CALL_SLOT_BYTES / 3)
    expect(writer.offer(fits, 1, 0)).toBe(true)
    expect(reader.take()?.text).toBe(fits)
  })

  it('reads a scribbled length as text no parser accepts, never throwing', () => {
    for (const length of [-5, CALL_SLOT_BYTES + 1, 2 ** 30]) {
      const slot = createCallSlot()
      const reader = new CallSlotReader(slot)
      expect(new CallSlotWriter(slot).offer(batchOf(1, 1), 1, 0)).toBe(true)
      new Int32Array(slot, 0, 3)[1] = length
      const text = reader.take()?.text
      expect(text).toBe('')
      expect(parseCallText(text, { nextCallId: 1, allowed: new Set(['echo']) })).toMatchObject({ ok: false })
    }
  })

  it('calls a watch from the event loop for each batch written, until stopped', async () => {
    const slot = createCallSlot()
    const writer = new CallSlotWriter(slot)
    const reader = new CallSlotReader(slot)
    const seen: { text: string; after: number }[] = []
    let delivered = () => {}
    let wakes = 0
    const stop = reader.watch(() => {
      wakes += 1
      for (let batch = reader.take(); batch !== undefined; batch = reader.take()) seen.push(batch)
      reader.accept(seen.length)
      delivered()
    })
    expect(() => reader.watch(() => {})).toThrow(/already watched/)
    for (let id = 1; id <= 3; id++) {
      const arrived = new Promise<void>((resolve) => {
        delivered = resolve
      })
      expect(writer.offer(batchOf(id, 1), id, id * 10)).toBe(true)
      await arrived
    }
    expect(seen).toEqual([1, 2, 3].map((id) => ({ text: batchOf(id, 1), after: id * 10 })))
    expect(wakes).toBe(3)
    stop()
    expect(writer.offer(batchOf(4, 1), 4, 0)).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(seen).toHaveLength(3)
    // A stopped watch can be replaced; the new one is told at once of the batch written meanwhile.
    const late: string[] = []
    const stopLate = reader.watch(() => {
      const batch = reader.take()
      if (batch !== undefined) late.push(batch.text)
    })
    expect(late).toEqual([batchOf(4, 1)])
    stopLate()
  })

  it('stops calling a watch that leaves a batch untaken until it is written again', async () => {
    const slot = createCallSlot()
    const writer = new CallSlotWriter(slot)
    const reader = new CallSlotReader(slot)
    let wakes = 0
    expect(writer.offer(batchOf(1, 1), 1, 0)).toBe(true)
    const stop = reader.watch(() => {
      wakes += 1
    })
    // Written before the watch and never taken: one call, no busy loop.
    expect(wakes).toBe(1)
    await new Promise((resolve) => setImmediate(resolve))
    expect(wakes).toBe(1)
    stop()
  })
})

describe('call batch text', () => {
  it('measures nesting outside strings only, escapes included', () => {
    const at = (args: unknown) =>
      parseCallBatch(callBatchText([callBatchEntry(1, 'echo', JSON.stringify(args))]))
    const deep = (depth: number, leaf: unknown): unknown => (depth === 0 ? leaf : [deep(depth - 1, leaf)])
    const brackets = ['\\', '"[[[[{{{{', '\\"[[[[', '[['.repeat(MAX_CALL_ARGUMENT_DEPTH)]
    expect(at(deep(MAX_CALL_ARGUMENT_DEPTH - 1, brackets))).toMatchObject({ ok: true })
    expect(at(deep(MAX_CALL_ARGUMENT_DEPTH, brackets))).toMatchObject({ ok: false, unreadable: true })
    expect(at({ a: { b: deep(MAX_CALL_ARGUMENT_DEPTH - 2, 1) } })).toMatchObject({ ok: true })
    expect(at({ a: { b: deep(MAX_CALL_ARGUMENT_DEPTH - 1, 1) } })).toMatchObject({
      ok: false,
      unreadable: true,
    })
  })

  it('round-trips calls with and without arguments', () => {
    const text = callBatchText([
      callBatchEntry(1, 'a"b', '{"x":[1,"]"]}'),
      callBatchEntry(2, 'echo', ''),
      callBatchEntry(3, 'echo', 'null'),
    ])
    expect(parseCallBatch(text)).toEqual({
      ok: true,
      calls: [
        { id: 1, name: 'a"b', argsJson: '{"x":[1,"]"]}' },
        { id: 2, name: 'echo', argsJson: undefined },
        { id: 3, name: 'echo', argsJson: 'null' },
      ],
    })
  })

  it('marks arguments nested past the limit unreadable, and accepts them at the limit', () => {
    const nest = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)
    expect(
      parseCallBatch(callBatchText([callBatchEntry(1, 'echo', nest(MAX_CALL_ARGUMENT_DEPTH))])),
    ).toMatchObject({ ok: true })
    expect(
      parseCallBatch(callBatchText([callBatchEntry(1, 'echo', nest(MAX_CALL_ARGUMENT_DEPTH + 1))])),
    ).toMatchObject({ ok: false, unreadable: true, reason: expect.stringMatching(/levels deep/) })
    const bomb = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000)
    expect(parseCallBatch(callBatchText([callBatchEntry(1, 'echo', bomb)]))).toMatchObject({
      unreadable: true,
    })
  })

  it('refuses every malformed shape as a protocol violation', () => {
    for (const text of [
      '',
      'nope',
      '{}',
      '[]',
      '[1,"echo"]',
      '[1,"echo",{}]',
      '[1,"echo",[1,2]]',
      '[1,"echo",[]',
      'null',
      '[1,"echo",[]] x',
      '[1,,"echo",[]]',
      '[1,"echo",[],]',
      '[1,"echo",{}]',
      '[1x,"echo",[]]',
      '[1,"echo,[]]',
      '[1,"echo",[1 ]',
      '  [1,"echo",[ 1 , 2 ]]',
    ]) {
      const parsed = parseCallBatch(text)
      expect(parsed.ok).toBe(false)
      if (!parsed.ok) expect(parsed.unreadable).toBeUndefined()
    }
  })

  it('is checked like a calls message: ids in sequence, names allowed', () => {
    const cursor = { nextCallId: 1, allowed: new Set(['echo']) }
    expect(parseCallText(batchOf(1, 2), cursor)).toMatchObject({
      ok: true,
      message: {
        kind: 'calls',
        calls: [
          { id: 1, argsJson: '{"i":0}' },
          { id: 2, argsJson: '{"i":1}' },
        ],
      },
    })
    expect(cursor.nextCallId).toBe(3)
    expect(parseCallText(batchOf(2, 1), cursor)).toMatchObject({ ok: false, reason: /out of sequence/ })
    expect(parseCallText(callBatchText([callBatchEntry(3, 'constructor', '')]), cursor)).toMatchObject({
      ok: false,
      reason: /not allowed/,
    })
    expect(parseCallText(42, cursor)).toMatchObject({ ok: false, reason: /text/ })
  })
})

/**
 * The reply slot on its own: what the host offers and the worker side takes, when the host must
 * fall back to a `res` message, and that a scribbled slot never throws in the reader.
 */
import { describe, expect, it } from 'vitest'
import { createReplySlot, offerReplies, REPLY_SLOT_BYTES, ReplySlotReader } from '../src/protocol/reply-slot'

describe('reply slot', () => {
  it('hands a batch over once, and refuses the next until the worker took it', () => {
    const slot = createReplySlot()
    const reader = new ReplySlotReader(slot)
    expect(reader.take()).toBeUndefined()
    const batch = [1, 0, 'é', null, 2, 1, '{"a":[1]}', null, 3, 2, 'tool', 'failed']
    // Nobody waits on the slot here, so the host must also post a wake message.
    expect(offerReplies(slot, batch)).toBe('needs-wake')
    expect(offerReplies(slot, [4, 0, 1, null])).toBe('refused')
    expect(reader.wait(0)).toBe(true)
    expect(reader.take()).toEqual(batch)
    expect(reader.take()).toBeUndefined()
    expect(reader.wait(1)).toBe(false)
    expect(offerReplies(slot, [4, 0, 1, null])).toBe('needs-wake')
    expect(reader.take()).toEqual([4, 0, 1, null])
  })

  it('refuses a batch larger than the slot, leaving it empty', () => {
    const slot = createReplySlot()
    const reader = new ReplySlotReader(slot)
    for (const text of ['x'.repeat(REPLY_SLOT_BYTES), '€'.repeat(REPLY_SLOT_BYTES / 3)]) {
      expect(offerReplies(slot, [1, 1, text, null])).toBe('refused')
      expect(reader.take()).toBeUndefined()
    }
  })

  it('reads a scribbled slot as an empty batch, never throwing', () => {
    for (const scribble of [
      (words: Int32Array, bytes: Uint8Array) => {
        words[2] = -5
        bytes.fill(0)
      },
      (words: Int32Array) => {
        words[2] = 2 ** 30
      },
      (_words: Int32Array, bytes: Uint8Array) => bytes.fill(0x7b),
      (words: Int32Array, bytes: Uint8Array) => {
        bytes.set(Buffer.from('{"not":"an array"}'))
        words[2] = 18
      },
    ]) {
      const slot = createReplySlot()
      const reader = new ReplySlotReader(slot)
      expect(offerReplies(slot, [1, 0, 1, null])).toBe('needs-wake')
      scribble(new Int32Array(slot, 0, 3), new Uint8Array(slot, 12))
      expect(reader.take()).toEqual([])
      expect(reader.take()).toBeUndefined()
    }
  })
})

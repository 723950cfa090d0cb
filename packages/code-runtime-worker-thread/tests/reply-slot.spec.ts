/**
 * The reply slot on its own: what the host offers and the worker side takes, when the host must
 * fall back to a `res` message, and that a scribbled length never throws in the reader (the text
 * itself is parsed by the QuickJS kernel, which ignores anything but an array).
 */
import { describe, expect, it } from 'vitest'
import {
  createReplySlot,
  REPLY_SLOT_BYTES,
  ReplySlotReader,
  ReplySlotWriter,
} from '../src/protocol/reply-slot'

const offerReplies = (slot: SharedArrayBuffer, batch: unknown[]) => new ReplySlotWriter(slot).offer(batch)

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
    expect(JSON.parse(reader.take()!)).toEqual(batch)
    expect(reader.take()).toBeUndefined()
    expect(reader.wait(1)).toBe(false)
    expect(offerReplies(slot, [4, 0, 1, null])).toBe('needs-wake')
    expect(reader.take()).toBe('[4,0,1,null]')
  })

  it('needs no wake-up between a take that returned a batch and the next take', () => {
    const slot = createReplySlot()
    const reader = new ReplySlotReader(slot)
    expect(offerReplies(slot, [1, 0, 1, null])).toBe('needs-wake')
    expect(reader.take()).toBe('[1,0,1,null]')
    // The worker is settling that batch and will take again before it sleeps.
    expect(offerReplies(slot, [2, 0, 2, null])).toBe('woken')
    expect(reader.take()).toBe('[2,0,2,null]')
    // An empty take ends that promise: the next batch must wake the worker again.
    expect(reader.take()).toBeUndefined()
    expect(offerReplies(slot, [3, 0, 3, null])).toBe('needs-wake')
    expect(reader.take()).toBe('[3,0,3,null]')
  })

  it('refuses a batch larger than the slot, leaving it empty', () => {
    const slot = createReplySlot()
    const reader = new ReplySlotReader(slot)
    for (const text of ['x'.repeat(REPLY_SLOT_BYTES), '€'.repeat(REPLY_SLOT_BYTES / 3)]) {
      expect(offerReplies(slot, [1, 1, text, null])).toBe('refused')
      expect(reader.take()).toBeUndefined()
    }
  })

  it('reads a scribbled length as an empty batch, never throwing, and takes it once', () => {
    for (const length of [-5, REPLY_SLOT_BYTES + 1, 2 ** 30]) {
      const slot = createReplySlot()
      const reader = new ReplySlotReader(slot)
      expect(offerReplies(slot, [1, 0, 1, null])).toBe('needs-wake')
      new Int32Array(slot, 0, 3)[2] = length
      expect(reader.take()).toBe('[]')
      expect(reader.take()).toBeUndefined()
    }
  })
})

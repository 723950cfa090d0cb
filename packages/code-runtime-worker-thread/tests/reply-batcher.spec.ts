import { describe, expect, it } from 'vitest'
import { ReplyStatus } from '../src/protocol/messages'
import { BATCH_FLUSH_UNITS, ReplyBatcher } from '../src/run/reply-batcher'

const tick = () => new Promise<void>((resolve) => setImmediate(resolve))

describe('ReplyBatcher', () => {
  it('sends the last outstanding answer at once', () => {
    const sent: unknown[][] = []
    const replies = new ReplyBatcher((batch) => sent.push(batch), 1 << 20)
    replies.expect()
    replies.value(1, 't', 5)
    expect(sent).toEqual([[1, 0, 5, null]])
  })

  it('sends held answers together with the last outstanding one', () => {
    const sent: unknown[][] = []
    const replies = new ReplyBatcher((batch) => sent.push(batch), 1 << 20)
    replies.expect()
    replies.expect()
    replies.value(1, 't', 'a')
    expect(sent).toEqual([])
    replies.value(2, 't', 'b')
    expect(sent).toEqual([[1, 0, 'a', null, 2, 0, 'b', null]])
  })

  it('holds answers while other calls are outstanding, then sends them as one message', async () => {
    const sent: unknown[][] = []
    const replies = new ReplyBatcher((batch) => sent.push(batch), 1 << 20)
    for (let i = 0; i < 3; i++) replies.expect()
    replies.value(1, 't', 'a')
    await Promise.resolve()
    replies.value(2, 't', { b: 1 })
    await Promise.resolve()
    expect(sent).toEqual([])
    await tick()
    expect(sent).toEqual([[1, 0, 'a', null, 2, 1, '{"b":1}', null]])
    replies.error(3, 't', { toolName: 't', message: 'denied' })
    await Promise.resolve()
    expect(sent).toHaveLength(2)
    expect(sent[1]).toEqual([3, 2, 't', 'denied'])
  })

  it('sends a batch at once when its strings reach BATCH_FLUSH_UNITS, however many calls are outstanding', () => {
    const sent: unknown[][] = []
    const replies = new ReplyBatcher((batch) => sent.push(batch), 1 << 22)
    for (let i = 0; i < 10; i++) replies.expect()
    const half = 'x'.repeat(BATCH_FLUSH_UNITS / 2)
    for (let id = 1; id <= 6; id++) replies.value(id, 't', id % 2 === 0 ? half : { half })
    // Strings and JSON text alike count: every second reply fills a batch.
    expect(sent.map((batch) => batch.length / 4)).toEqual([2, 2, 2])
  })

  it('answers a result longer than maxReplyUnits with an error, as string or as JSON text', () => {
    const sent: unknown[][] = []
    const replies = new ReplyBatcher((batch) => sent.push(batch), 10)
    replies.expect()
    replies.expect()
    replies.expect()
    replies.value(1, 't', 'x'.repeat(11))
    replies.value(2, 't', { s: 'xxxx' })
    replies.value(3, 't', 'x'.repeat(10))
    expect(sent).toHaveLength(1)
    const batch = sent[0] as unknown[]
    expect(batch.slice(0, 3)).toEqual([1, ReplyStatus.ERROR, 't'])
    expect(batch[3]).toMatch(/too large for the program: 11 characters, at most 10/)
    expect(batch.slice(4, 7)).toEqual([2, ReplyStatus.ERROR, 't'])
    // An object is bounded before its text is built.
    expect(batch[7]).toMatch(/more than 10 characters, at most 10/)
    expect(batch.slice(8)).toEqual([3, ReplyStatus.PRIMITIVE, 'x'.repeat(10), null])
  })

  it('refuses a value with shared references before JSON.stringify would expand it', () => {
    const sent: unknown[][] = []
    const replies = new ReplyBatcher((batch) => sent.push(batch), 1_000_000)
    let value: unknown = ['x']
    for (let i = 0; i < 60; i++) value = [value, value]
    replies.expect()
    replies.value(1, 't', value)
    expect(sent[0]?.slice(0, 3)).toEqual([1, ReplyStatus.ERROR, 't'])
    expect(sent[0]?.[3]).toMatch(/too large for the program: more than 1000000 characters/)
  })

  it('answers a value whose getter or proxy trap throws while it is measured as not JSON', () => {
    const hostile: unknown[] = [
      {
        get a() {
          throw new Error('getter')
        },
      },
      new Proxy(
        {},
        {
          ownKeys() {
            throw new Error('trap')
          },
        },
      ),
    ]
    hostile.push([hostile[0], hostile[0]])
    for (const value of hostile) {
      const sent: unknown[][] = []
      const replies = new ReplyBatcher((batch) => sent.push(batch), 1_000_000)
      replies.expect()
      expect(() => replies.value(1, 't', value)).not.toThrow()
      expect(sent[0]?.slice(0, 3)).toEqual([1, ReplyStatus.ERROR, 't'])
      expect(sent[0]?.[3]).toMatch(/not JSON/)
    }
  })

  it('cuts an error message (and tool name) to the longest text the program may receive', () => {
    const sent: unknown[][] = []
    const replies = new ReplyBatcher((batch) => sent.push(batch), 100)
    replies.expect()
    replies.error(1, 't', { toolName: 'n'.repeat(500), message: 'm'.repeat(1_000_000) })
    const [id, status, name, message] = sent[0] as [number, number, string, string]
    expect([id, status]).toEqual([1, ReplyStatus.ERROR])
    expect(name.length).toBeLessThanOrEqual(100)
    expect(message.length).toBeLessThanOrEqual(100)
    expect(message).toMatch(/^m+ … \(cut from 1000000 characters: the program may receive at most 100\)$/)
  })
})

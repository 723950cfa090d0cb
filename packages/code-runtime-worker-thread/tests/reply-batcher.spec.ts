import { describe, expect, it } from 'vitest'
import { ReplyBatcher } from '../src/run/reply-batcher'

const tick = () => new Promise<void>((resolve) => setImmediate(resolve))

describe('ReplyBatcher', () => {
  it('sends the last outstanding answer at once', () => {
    const sent: unknown[][] = []
    const replies = new ReplyBatcher((batch) => sent.push(batch))
    replies.expect()
    replies.value(1, 't', 5)
    expect(sent).toEqual([[1, 0, 5, null]])
  })

  it('sends held answers together with the last outstanding one', () => {
    const sent: unknown[][] = []
    const replies = new ReplyBatcher((batch) => sent.push(batch))
    replies.expect()
    replies.expect()
    replies.value(1, 't', 'a')
    expect(sent).toEqual([])
    replies.value(2, 't', 'b')
    expect(sent).toEqual([[1, 0, 'a', null, 2, 0, 'b', null]])
  })

  it('holds answers while other calls are outstanding, then sends them as one message', async () => {
    const sent: unknown[][] = []
    const replies = new ReplyBatcher((batch) => sent.push(batch))
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
})

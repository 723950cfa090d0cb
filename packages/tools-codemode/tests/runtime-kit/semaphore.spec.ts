import { describe, expect, it } from 'vitest'
import { Semaphore } from '../../src/runtime-kit/index'

describe('Semaphore', () => {
  it('grants permits up to its count, then in FIFO order as permits return', async () => {
    const slots = new Semaphore(1)
    expect(await slots.acquire()).toBe(true)
    const order: number[] = []
    const waiting = [1, 2, 3].map((n) => slots.acquire().then((granted) => granted && order.push(n)))
    expect(slots.waiting).toBe(3)
    slots.release()
    slots.release()
    slots.release()
    await Promise.all(waiting)
    expect(order).toEqual([1, 2, 3])
  })

  it('lets an aborted waiter leave the queue without taking a permit', async () => {
    const slots = new Semaphore(1)
    await slots.acquire()
    const controller = new AbortController()
    const gaveUp = slots.acquire(controller.signal)
    const next = slots.acquire()
    controller.abort()
    expect(await gaveUp).toBe(false)
    expect(slots.waiting).toBe(1)
    slots.release()
    expect(await next).toBe(true)
    expect(await slots.acquire(AbortSignal.abort())).toBe(false)
  })

  it('refuses current and later waiters once closed', async () => {
    const slots = new Semaphore(0)
    const waiting = slots.acquire()
    slots.close()
    expect(await waiting).toBe(false)
    expect(await slots.acquire()).toBe(false)
    expect(() => new Semaphore(-1)).toThrow(RangeError)
  })
})

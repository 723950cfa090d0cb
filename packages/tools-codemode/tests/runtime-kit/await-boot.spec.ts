import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import { awaitBoot, type BootOutcome } from '../../src/runtime-kit/index'

const classify = (message: unknown): BootOutcome<string> | undefined => {
  const kind = (message as { k?: unknown } | null)?.k
  if (kind === 'ready') return { ok: true, value: 'ready' }
  if (kind === 'boot-failed') return { ok: false, message: 'failed' }
  return undefined
}
const describeError = (error: unknown) => `described ${String((error as Error).message)}`

describe('awaitBoot', () => {
  it('ends on the ready message, ignoring others, and removes its listeners', async () => {
    const worker = new EventEmitter()
    const booting = awaitBoot(worker, classify, describeError)
    worker.emit('message', { k: 'log' })
    worker.emit('message', null)
    worker.emit('message', { k: 'ready' })
    expect(await booting).toEqual({ ok: true, value: 'ready' })
    expect(['message', 'error', 'exit'].map((event) => worker.listenerCount(event))).toEqual([0, 0, 0])
  })

  it('ends as failed on a failure message, an error event or an exit, whichever comes first', async () => {
    const failing = new EventEmitter()
    const a = awaitBoot(failing, classify, describeError)
    failing.emit('message', { k: 'boot-failed' })
    failing.emit('exit', 1)
    expect(await a).toEqual({ ok: false, message: 'failed' })

    const erroring = new EventEmitter()
    const b = awaitBoot(erroring, classify, describeError)
    erroring.emit('error', new Error('boom'))
    expect(await b).toEqual({ ok: false, message: 'described boom' })

    const exiting = new EventEmitter()
    const c = awaitBoot(exiting, classify, describeError)
    exiting.emit('exit', 7)
    expect(await c).toEqual({ ok: false, message: 'the worker exited while booting (code 7)' })
    for (const worker of [failing, erroring, exiting]) {
      expect(['message', 'error', 'exit'].map((event) => worker.listenerCount(event))).toEqual([0, 0, 0])
    }
  })
})

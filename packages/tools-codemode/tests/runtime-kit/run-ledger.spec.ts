import { describe, expect, it } from 'vitest'
import { RunLedger } from '../../src/runtime-kit/index'

function fakeExit() {
  let exit!: (code: number) => void
  let done = false
  const exited = new Promise<number>((resolve) => {
    exit = (code) => {
      done = true
      resolve(code)
    }
  })
  return { exited, hasExited: () => done, exit }
}

describe('RunLedger', () => {
  it('counts a taken worker as running, then as exiting until its exit', async () => {
    const ledger = new RunLedger<ReturnType<typeof fakeExit>>()
    const worker = fakeExit()
    ledger.taken()
    expect([ledger.running, ledger.exiting]).toEqual([1, 0])
    ledger.released(worker)
    expect([ledger.running, ledger.exiting]).toEqual([0, 1])
    expect(ledger.exits()).toEqual([worker.exited])
    worker.exit(0)
    await worker.exited
    await Promise.resolve()
    expect([ledger.running, ledger.exiting, ledger.exits().length]).toEqual([0, 0, 0])
  })

  it('does not count a worker that already exited as exiting', () => {
    const ledger = new RunLedger<ReturnType<typeof fakeExit>>()
    const worker = fakeExit()
    worker.exit(1)
    ledger.taken()
    ledger.released(worker)
    expect([ledger.running, ledger.exiting]).toEqual([0, 0])
  })
})

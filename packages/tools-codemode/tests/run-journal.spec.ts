import { argumentsHash, type ToolExecutionResult } from '@dsh/tools-core'
import { describe, expect, it } from 'vitest'
import { RunJournal } from '../src/durable/run-journal'
import type { RunRecordData } from '../src/durable/run-record'

const ok = (value: unknown): ToolExecutionResult =>
  ({ isError: false, value, content: [] }) as unknown as ToolExecutionResult
const asked = (ticket: string): ToolExecutionResult =>
  ({
    isError: true,
    error: { message: 'waits', info: { code: 'APPROVAL_PENDING' } },
    content: [],
    pending: { ticket, tool: 'deploy', agent: '', reason: 'r', expiresAt: 5 },
  }) as unknown as ToolExecutionResult

function previous(ledger: RunRecordData['ledger']): RunRecordData {
  return {
    v: 1,
    ticket: 'run.x.y',
    agent: '',
    callId: 'c',
    language: 'typescript',
    code: '',
    codeHash: '',
    description: '',
    fingerprints: {},
    ledger,
    reads: [['d', 1]],
    logLines: 2,
    approvals: [],
  }
}

describe('RunJournal', () => {
  it('records started calls and their outcomes; an ask stops the run and is collected; hashes only on ledger()', () => {
    const journal = new RunJournal()
    journal.started(1, 'read', { a: 1 })
    journal.started(2, 'deploy', { t: 'prod' })
    journal.started(3, 'read', { a: 2 })
    expect(journal.settled(1, ok('x'))).toBe(false)
    expect(journal.stop).toBeUndefined()
    expect(journal.settled(2, asked('apr.a.b'))).toBe(true)
    expect(journal.stop).toEqual({ kind: 'suspend' })
    expect(journal.asked).toEqual([{ ticket: 'apr.a.b', tool: 'deploy', reason: 'r', expiresAt: 5 }])
    journal.freeze()
    expect(journal.settled(3, ok('late'))).toBe(false)
    expect(journal.ledger()).toEqual([
      { n: 1, tool: 'read', hash: argumentsHash({ a: 1 }), outcome: { value: 'x' } },
      { n: 2, tool: 'deploy', hash: argumentsHash({ t: 'prod' }), outcome: { approval: 'apr.a.b' } },
      { n: 3, tool: 'read', hash: argumentsHash({ a: 2 }), outcome: { unknown: true } },
    ])
  })

  it('answers ledger calls after checking tool and argument hash; a mismatch is a divergence naming the sub-call', () => {
    const journal = new RunJournal(
      previous([
        { n: 1, tool: 'read', hash: argumentsHash({ a: 1 }), outcome: { value: 'x' } },
        { n: 2, tool: 'deploy', hash: argumentsHash({ t: 'prod' }), outcome: { approval: 'apr.a.b' } },
        { n: 3, tool: 'read', hash: argumentsHash({ a: 2 }), outcome: { error: 'boom' } },
      ]),
    )
    expect(journal.replayReads).toEqual([['d', 1]])
    expect(journal.shownLogLines).toBe(2)
    expect(journal.replay(1, 'read', { a: 1 })).toEqual({ kind: 'value', value: 'x' })
    expect(journal.replay(2, 'deploy', { t: 'prod' })).toEqual({ kind: 'resume', ticket: 'apr.a.b' })
    expect(journal.replay(4, 'read', {})).toBeUndefined()
    expect(journal.replay(3, 'read', { a: 3 })).toMatchObject({
      kind: 'diverged',
      message: expect.stringMatching(/^the program diverged on replay at sub-call 3: .*other arguments/),
    })
    expect(journal.stop).toMatchObject({ kind: 'diverged' })
    expect(
      new RunJournal(previous([{ n: 1, tool: 'read', hash: 'h', outcome: { value: 1 } }])).replay(
        1,
        'write',
        {},
      ),
    ).toMatchObject({
      kind: 'diverged',
      message: expect.stringContaining('called `write` where the suspended run had called `read`'),
    })
  })

  it('a resumed approval settles into the next ledger in place of the approval', () => {
    const journal = new RunJournal(
      previous([
        { n: 1, tool: 'deploy', hash: argumentsHash({ t: 'prod' }), outcome: { approval: 'apr.a.b' } },
      ]),
    )
    journal.replay(1, 'deploy', { t: 'prod' })
    journal.settled(1, ok('deployed'))
    expect(journal.ledger()).toEqual([
      { n: 1, tool: 'deploy', hash: argumentsHash({ t: 'prod' }), outcome: { value: 'deployed' } },
    ])
    journal.recordReads([['r', 0.5]])
    expect(journal.reads()).toEqual([
      ['d', 1],
      ['r', 0.5],
    ])
  })
})

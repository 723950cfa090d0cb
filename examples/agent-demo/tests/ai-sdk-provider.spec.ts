// `--provider ai-sdk`: the same scripted turns through the Vercel AI SDK's generateText over
// @dsh/tools-ai-sdk — the real tools, policy and runtimes; the model's turns in the AI SDK's
// LanguageModelV4 wire shape; approvals asked and answered the AI SDK's way.
import { describe, expect, it } from 'vitest'
import { parseDemoOptions, UsageError } from '../src/cli-options'
import { runDemo } from '../src/run-demo'
import { cardsOf, NATIVE_CARDS } from './fixtures/cards'

describe('--provider ai-sdk', () => {
  it('parses, and refuses providers it does not know', () => {
    expect(parseDemoOptions(['--provider', 'ai-sdk'], {}, false).provider).toBe('ai-sdk')
    expect(parseDemoOptions([], {}, false).provider).toBeUndefined()
    expect(() => parseDemoOptions(['--provider', 'nope'], {}, false)).toThrow(UsageError)
  })

  it('native: fixes the bug with the same calls and cards; asked calls wait for the AI SDK approval', async () => {
    const run = await runDemo({ mode: 'native', provider: 'ai-sdk' })
    expect(run.before.passed).toBe(false)
    expect(run.after.passed).toBe(true)
    expect(run.outcome.turns).toBe(7)
    expect(cardsOf(run.events)).toEqual(NATIVE_CARDS)
    // Each asked call: the AI SDK's approval request answered by the demo's rule, then the
    // pipeline's own gate once when the approved call runs (the approval check is not logged).
    expect(run.policyLog.map((d) => `${d.callId} ${d.stage} ${d.verdict}`)).toEqual([
      's1 pre-execute allow',
      'n1 pre-execute allow',
      'n2 pre-execute allow',
      'n3 pre-execute allow',
      'n3 guard deny',
      'n4 approval approved',
      'n4 pre-execute ask',
      'p1 pre-execute allow',
      'n5 pre-execute allow',
      'n6 pre-execute allow',
      'n7 pre-execute allow',
      'n8 approval approved',
      'n9 approval approved',
      'n8 pre-execute ask',
      'n9 pre-execute ask',
      'n10 approval denied',
    ])
    // Each body ran once: one published result per dispatched call.
    expect(run.outcome.results.map(({ call }) => call.id)).toEqual([
      's1',
      'n1',
      'n2',
      'n3',
      'n4',
      'p1',
      'n5',
      'n6',
      'n7',
      'n8',
      'n9',
    ])
  })

  it('code: one run_code program, its sub-calls through the pipeline', async () => {
    const run = await runDemo({ mode: 'code', provider: 'ai-sdk' })
    expect(run.after.passed).toBe(true)
    expect(run.outcome.turns).toBe(2)
    expect(cardsOf(run.events)).toEqual([
      'call c1 run_code generic',
      'call c1:code:1 bash terminal',
      'result c1:code:1 bash terminal',
      'call c1:code:2 glob generic',
      'result c1:code:2 glob search',
      'call c1:code:3 grep generic',
      'result c1:code:3 grep search',
      'call c1:code:4 read generic',
      'result c1:code:4 read read',
      'call c1:code:5 read generic',
      'result c1:code:5 read generic error',
      'call c1:code:6 edit diff',
      'result c1:code:6 edit diff',
      'call c1:code:7 bash terminal',
      'result c1:code:7 bash terminal',
      'result c1 run_code generic',
    ])
  })
})

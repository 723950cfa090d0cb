// `--provider`: the same scripted turns as each provider's recorded responses, through
// @dsh/tools-providers end to end (tool list, calls, results), fixing the same bug.
import { describe, expect, it } from 'vitest'
import type { LoopEvent } from '../src/agent-loop'
import { DEMO_PROVIDERS } from '../src/provider-table'
import { type DemoRunResult, runDemo } from '../src/run-demo'

const cards = (events: readonly LoopEvent[]) =>
  events.flatMap((event) =>
    event.type === 'call' || event.type === 'result'
      ? [
          `${event.type} ${event.callId} ${event.name}${event.type === 'result' && event.isError ? ' error' : ''}`,
        ]
      : [],
  )

/** Where each provider's wire format puts a result: the entry kind and the call-id key. */
const RESULT_OF: Record<string, (entry: Record<string, unknown>) => string[]> = {
  'openai-chat': (entry) => (entry['role'] === 'tool' ? [String(entry['tool_call_id'])] : []),
  'openai-responses': (entry) => (entry['type'] === 'function_call_output' ? [String(entry['call_id'])] : []),
  anthropic: (entry) =>
    Array.isArray(entry['content'])
      ? (entry['content'] as { type: string; tool_use_id?: string }[]).flatMap((block) =>
          block.type === 'tool_result' ? [block.tool_use_id!] : [],
        )
      : [],
  gemini: (entry) =>
    Array.isArray(entry['parts'])
      ? (entry['parts'] as { functionResponse?: { id: string } }[]).flatMap((part) =>
          part.functionResponse ? [part.functionResponse.id] : [],
        )
      : [],
}

/** The native run through each provider, made on first use: openai-chat's is read by two tests. */
const nativeRuns = new Map<string, Promise<DemoRunResult>>()
function nativeRun(provider: string): Promise<DemoRunResult> {
  let run = nativeRuns.get(provider)
  if (run === undefined) nativeRuns.set(provider, (run = runDemo({ mode: 'native', provider })))
  return run
}

describe('agent demo --provider', { timeout: 240_000 }, () => {
  it('the table lists the four wire formats and the AI SDK', () => {
    expect(Object.keys(DEMO_PROVIDERS)).toEqual([
      'openai-chat',
      'openai-responses',
      'anthropic',
      'gemini',
      'ai-sdk',
    ])
  })

  for (const provider of Object.keys(RESULT_OF)) {
    it(`${provider}: native mode fixes the bug with the same calls, every result in the provider's format`, async () => {
      const run = await nativeRun(provider)
      expect(run.after.passed).toBe(true)
      expect(run.model).toBe(`scripted (native) via ${provider}`)
      expect(run.outcome.turns).toBe(7)
      const plain = cards(run.events)
      expect(plain).toContain('result n3 read error') // .env is denied by policy
      expect(plain).toContain('result n10 bash error') // npm publish is denied
      // every call was answered in the wire conversation, once, in order
      const answered = (run.outcome.wire ?? []).flatMap((entry) => RESULT_OF[provider]!(entry))
      expect(answered).toEqual(run.outcome.results.map((entry) => entry.call.id))
      expect(run.outcome.finalText).toMatch(/Publishing was refused by policy/)
    })
  }

  it('openai-chat: a strict-mode null for an optional property reaches the tool as absent', async () => {
    const run = await nativeRun('openai-chat')
    const reads = (run.outcome.wire ?? []).flatMap((entry) =>
      (
        (entry['tool_calls'] as
          | { id: string; function: { name: string; arguments: string } }[]
          | undefined) ?? []
      ).filter((call) => call.function.name === 'read'),
    )
    // the model (strict mode) gave `limit: null`; the pipeline validated and ran it without one
    const n2 = reads.find((call) => call.id === 'n2')!
    expect(JSON.parse(n2.function.arguments)).toMatchObject({ file_path: 'package.json', limit: null })
    const result = run.outcome.results.find((entry) => entry.call.id === 'n2')!.result
    expect(result.isError).toBe(false)
  })

  it('Code Mode: run_code through the provider format (anthropic)', async () => {
    const run = await runDemo({ mode: 'code', provider: 'anthropic' })
    expect(run.after.passed).toBe(true)
    expect(run.outcome.finalText).toMatch(/Fixed the off-by-one/)
    expect(run.outcome.wire?.[1]).toMatchObject({
      role: 'assistant',
      content: [{ type: 'text' }, { type: 'tool_use', id: 'c1', name: 'run_code' }],
    })
  })

  it('an unknown provider is refused before anything runs', async () => {
    await expect(runDemo({ mode: 'native', provider: 'cohere' })).rejects.toThrow(/unknown provider `cohere`/)
  })
})

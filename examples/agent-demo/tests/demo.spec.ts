import { describe, expect, it } from 'vitest'
import type { LoopEvent } from '../src/agent-loop'
import { renderCallCard, renderResultCard } from '../src/cards'
import { runDemo } from '../src/run-demo'
import { ScriptedModel } from '../src/scripted-model'

const cardsOf = (events: readonly LoopEvent[]) =>
  events.flatMap((event) =>
    event.type === 'call' || event.type === 'result'
      ? [
          `${event.type} ${event.callId} ${event.name} ${event.view.card}${event.type === 'result' && event.isError ? ' error' : ''}`,
        ]
      : [],
  )

/** The cards of the Code Mode run: the same in TypeScript and in Python. */
const CODE_MODE_CARDS = [
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
]

describe('agent demo', () => {
  it('native mode: finds, fixes and verifies the bug through executeBatch', async () => {
    const lines: string[] = []
    const run = await runDemo({ mode: 'native', write: (line) => lines.push(line) })

    expect(run.before.passed).toBe(false)
    expect(run.after.passed).toBe(true)
    expect(run.outcome.turns).toBe(5)

    const batches = run.events.filter((event) => event.type === 'batch')
    expect(batches.map((batch) => batch.calls.map((call) => `${call.name}:${call.mode}`))).toEqual([
      ['glob:parallel', 'read:parallel', 'read:parallel', 'bash:exclusive'],
      ['grep:parallel', 'read:parallel', 'read:parallel'],
      ['edit:exclusive', 'bash:exclusive'],
      ['bash:exclusive'],
    ])
    expect(cardsOf(run.events)).toEqual([
      'call n1 glob generic',
      'result n1 glob search',
      'call n2 read generic',
      'result n2 read read',
      'call n3 read generic',
      'result n3 read generic error',
      'call n4 bash terminal',
      'result n4 bash terminal',
      'call n5 grep generic',
      'result n5 grep search',
      'call n6 read generic',
      'result n6 read read',
      'call n7 read generic',
      'result n7 read read',
      'call n8 edit diff',
      'result n8 edit diff',
      'call n9 bash terminal',
      'result n9 bash terminal',
      'call n10 bash terminal',
      'result n10 bash generic error',
    ])
    expect(run.policyLog.map((d) => `${d.callId} ${d.stage} ${d.verdict}`)).toEqual([
      'n1 pre-execute allow',
      'n2 pre-execute allow',
      'n3 pre-execute allow',
      'n3 guard deny',
      'n4 pre-execute ask',
      'n4 approval approved',
      'n5 pre-execute allow',
      'n6 pre-execute allow',
      'n7 pre-execute allow',
      'n8 pre-execute ask',
      'n8 approval approved',
      'n9 pre-execute ask',
      'n9 approval approved',
      'n10 pre-execute ask',
      'n10 approval denied',
    ])
    expect(lines.join('\n')).toContain('+  const end = start + pageSize')
    // the test runs are long enough to report output so far; each line sits under its bash call
    const progress = run.events.flatMap((event) => (event.type === 'progress' ? [event] : []))
    expect(progress.length).toBeGreaterThan(0)
    for (const event of progress) {
      expect(['n4', 'n9']).toContain(event.callId)
      expect(event.text).toMatch(/^\d+ bytes, \d+ lines of output so far$/)
    }
    expect(lines.some((line) => /^\s+⋯ \d+ bytes, \d+ lines of output so far$/.test(line))).toBe(true)
  }, 120_000)

  it('Code Mode: one run_code program does the same through tools.*', async () => {
    const run = await runDemo({ mode: 'code' })

    expect(run.before.passed).toBe(false)
    expect(run.after.passed).toBe(true)
    const assembly = run.events.find((event) => event.type === 'assembly')
    expect(assembly).toMatchObject({ mode: 'code', tools: ['run_code'] })
    expect(cardsOf(run.events)).toEqual(CODE_MODE_CARDS)
    expect(
      run.policyLog.filter((d) => d.verdict !== 'allow').map((d) => `${d.callId} ${d.stage} ${d.verdict}`),
    ).toEqual([
      'c1:code:1 pre-execute ask',
      'c1:code:1 approval approved',
      'c1:code:5 guard deny',
      'c1:code:6 pre-execute ask',
      'c1:code:6 approval approved',
      'c1:code:7 pre-execute ask',
      'c1:code:7 approval approved',
    ])
    expect(run.outcome.finalText).toContain('passes now')
  }, 120_000)

  it('Code Mode with --lang python: the equivalent Python program runs on Pyodide and fixes the bug', async () => {
    const run = await runDemo({ mode: 'code', lang: 'python' })

    expect(run.model).toBe('scripted (Code Mode, Python)')
    expect(run.before.passed).toBe(false)
    expect(run.after.passed).toBe(true)
    // Same sub-calls, cards and policy decisions as the TypeScript program: only the language differs.
    expect(cardsOf(run.events)).toEqual(CODE_MODE_CARDS)
    expect(run.policyLog.filter((d) => d.verdict === 'deny').map((d) => `${d.callId} ${d.stage}`)).toEqual([
      'c1:code:5 guard',
    ])
    expect(run.outcome.finalText).toContain('passes now')
  }, 300_000)
})

describe('Code Mode sub-call cards', () => {
  it('every tool shows the same call and result cards as a sub-call as it does natively', async () => {
    const [native, code] = await Promise.all([runDemo({ mode: 'native' }), runDemo({ mode: 'code' })])
    /** tool → the set of `call:<card>` / `result:<card>` kinds of its successful calls. */
    const kinds = (events: readonly LoopEvent[], nested: boolean) => {
      const failed = new Set(
        events.flatMap((event) => (event.type === 'result' && event.isError ? [event.callId] : [])),
      )
      const out = new Map<string, Set<string>>()
      for (const event of events) {
        if (event.type !== 'call' && event.type !== 'result') continue
        if ((event.parentCallId !== undefined) !== nested || failed.has(event.callId)) continue
        const set = out.get(event.name) ?? new Set<string>()
        set.add(`${event.type}:${event.view.card}`)
        out.set(event.name, set)
      }
      return out
    }
    const nativeKinds = kinds(native.events, false)
    const subCallKinds = kinds(code.events, true)
    expect([...subCallKinds.keys()].sort()).toEqual(['bash', 'edit', 'glob', 'grep', 'read'])
    for (const [name, set] of subCallKinds)
      expect([...set].sort(), name).toEqual([...nativeKinds.get(name)!].sort())
    // and no successful sub-call falls back to the generic result card
    expect([...subCallKinds.values()].some((set) => set.has('result:generic'))).toBe(false)
  }, 120_000)
})

describe('demo outcome', () => {
  it('a model that fixes nothing leaves the suite failing, so the demo reports failure', async () => {
    const model = new ScriptedModel('lazy', [{ text: 'Looks fine to me.', toolCalls: [] }])
    const run = await runDemo({ mode: 'native', model })
    expect(run.outcome.turns).toBe(1)
    expect(run.after.passed).toBe(false)
  }, 60_000)

  it('a script calling a tool the mode does not offer fails loudly', async () => {
    const model = new ScriptedModel('confused', [
      { text: '', toolCalls: [{ id: 'x1', name: 'read', arguments: { file_path: 'package.json' } }] },
    ])
    await expect(runDemo({ mode: 'code', model })).rejects.toThrow(/does not offer/)
  }, 60_000)
})

describe('card renderer', () => {
  const style = { color: false, maxLines: 4, workspace: '/tmp/ws' }

  it('draws a read card with line numbers and elides long bodies', () => {
    const lines = renderResultCard(
      {
        card: 'read',
        path: '/tmp/ws/a.js',
        offset: 1,
        totalLines: 6,
        lines: [1, 2, 3, 4, 5, 6].map((number) => ({ number, text: `line ${number}` })),
      },
      style,
    )
    expect(lines).toEqual([
      '┌ read ./a.js',
      '│ 1  line 1',
      '│ 2  line 2',
      '│ … 2 more lines …',
      '│ 5  line 5',
      '│ 6  line 6',
      '└ lines 1–6 of 6',
    ])
  })

  it('draws a terminal call as a prompt line and its result with the exit status', () => {
    expect(
      renderCallCard({ card: 'terminal', title: 'node --test', description: 'Run tests' }, style, '[n1]'),
    ).toEqual(['[n1] $ node --test   # Run tests'])
    expect(renderResultCard({ card: 'terminal', output: 'ok\n', exitCode: 0 }, style)).toEqual([
      '┌ terminal',
      '│ ok',
      '└ exit 0',
    ])
  })
})

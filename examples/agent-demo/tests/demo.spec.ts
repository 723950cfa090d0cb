import { beforeAll, describe, expect, it, vi } from 'vitest'
import type { LoopEvent } from '../src/agent-loop'
import { renderCallCard, renderResultCard } from '../src/cards'
import { parseDemoOptions } from '../src/cli-options'
import { runDemoCommand } from '../src/demo-command'
import { runDemo } from '../src/run-demo'
import { ScriptedModel } from '../src/scripted-model'
import { cardsOf, NATIVE_CARDS } from './fixtures/cards'

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

/** `fn`'s promise, made on first use: the runs below are shared by the tests that read them. */
function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let promise: Promise<T> | undefined
  return () => {
    promise ??= fn()
    return promise
  }
}

// The demo command as `pnpm demo` runs it (`--no-color`: a native run, then a Code Mode run; each
// boots the toolkit and runs the fixture's tests several times in the sandbox), in this process:
// its printed lines are read by the output tests, its two runs by the mode tests and the sub-call
// card comparison. Any other write — to stdout or stderr, from this thread or a worker's piped
// stdio, or through the console — is a stray line a user would see, and fails the run.
const commandRun = once(async () => {
  const lines: string[] = []
  const stray: string[] = []
  const spies = [
    ...(['stdout', 'stderr'] as const).map((name) =>
      vi.spyOn(process[name], 'write').mockImplementation((chunk: string | Uint8Array) => {
        stray.push(`${name}: ${String(chunk)}`)
        return true
      }),
    ),
    ...(['log', 'info', 'warn', 'error', 'debug'] as const).map((name) =>
      vi.spyOn(console, name).mockImplementation((...args: unknown[]) => {
        stray.push(`console.${name}: ${args.join(' ')}`)
      }),
    ),
  ]
  try {
    const env = { ...process.env, OPENAI_API_KEY: '', OPENAI_BASE_URL: '' }
    const options = parseDemoOptions(['--no-color'], env, false)
    const result = await runDemoCommand(options, (line) => lines.push(line), env)
    return { ...result, lines, stray }
  } finally {
    for (const spy of spies) spy.mockRestore()
  }
})
/** The native run and the lines it printed (from its heading to the Code Mode run's). */
const nativeRun = once(async () => {
  const { runs, lines } = await commandRun()
  const start = lines.findIndex((line) => line.startsWith('━━ native function calling'))
  const end = lines.findIndex((line) => line.startsWith('━━ mode code'))
  expect([start, end].every((at) => at >= 0)).toBe(true)
  return { run: runs[0]!, lines: lines.slice(start, end) }
})
const codeRun = once(async () => (await commandRun()).runs[1]!)

describe('agent demo', () => {
  it('native mode: finds glob with tool_search, pages the cut test output, fixes and verifies the bug through executeBatch', async () => {
    const { run, lines } = await nativeRun()

    expect(run.before.passed).toBe(false)
    expect(run.after.passed).toBe(true)
    expect(run.outcome.turns).toBe(7)

    const batches = run.events.filter((event) => event.type === 'batch')
    expect(batches.map((batch) => batch.calls.map((call) => `${call.name}:${call.mode}`))).toEqual([
      ['tool_search:exclusive'],
      ['glob:parallel', 'read:parallel', 'read:parallel', 'bash:exclusive'],
      ['read_result:parallel'],
      ['grep:parallel', 'read:parallel', 'read:parallel'],
      ['edit:exclusive', 'bash:exclusive'],
      ['bash:exclusive'],
    ])
    expect(cardsOf(run.events)).toEqual(NATIVE_CARDS)
    expect(run.policyLog.map((d) => `${d.callId} ${d.stage} ${d.verdict}`)).toEqual([
      's1 pre-execute allow',
      'n1 pre-execute allow',
      'n2 pre-execute allow',
      'n3 pre-execute allow',
      'n3 guard deny',
      'n4 pre-execute ask',
      'n4 approval approved',
      'p1 pre-execute allow',
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

    // deferred tools: glob is not offered until tool_search finds and loads it
    const toolLists = run.events.flatMap((event) =>
      event.type === 'assembly' || event.type === 'tools' ? [event.tools] : [],
    )
    expect(toolLists[0]).toContain('tool_search')
    expect(toolLists[0]).not.toContain('glob')
    expect(toolLists[1]).toContain('glob')
    expect(toolLists[1]).not.toContain('tool_search') // nothing left to find
    const result = (callId: string) => run.outcome.results.find((entry) => entry.call.id === callId)!.result
    const text = (callId: string) =>
      result(callId)
        .content.map((part) => (part.type === 'text' ? part.text : ''))
        .join('\n')
    expect(text('s1')).toMatch(/^- glob\(pattern: string/m)
    expect(result('n1').isError).toBe(false)
    expect(text('n1')).toContain('src/paginate.js')
    const printed = lines.join('\n')
    expect(printed).toContain('[s1] ▸ tool_search {"query":"find files matching a glob pattern"}')
    expect(printed).toContain('│ - glob(pattern: string (required)')
    expect(printed).toContain('tools now (turn 2): [')
    expect(printed).toContain('[n1] ▸ Glob **/*.js')

    // result budget: the first test run is cut for the model, and read_result pages the rest
    const cut = text('n4')
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(1_024)
    const marker = cut.match(
      /…\[elided \d+ bytes, \d+ lines; full result: read_result handle=(res_[\w-]+)\]…/,
    )
    expect(marker).not.toBeNull()
    const handle = marker![1]!
    expect(run.events.find((event) => event.type === 'result' && event.callId === 'n4')).toMatchObject({
      elided: [expect.stringContaining(`read_result handle=${handle}`)],
    })
    expect(printed).toMatch(
      /✂ cut for the model: head and tail kept, …\[elided \d+ bytes, \d+ lines; full result: read_result handle=res_/,
    )
    const page = result('p1')
    if (page.isError) throw new Error(`read_result failed: ${page.error.message}`)
    expect(page.value).toMatchObject({ handle, offset: cut.indexOf('…[elided '), nextOffset: null })
    const full = cut.slice(0, cut.indexOf('…[elided ')) + (page.value as { text: string }).text
    expect(full).toMatch(/ℹ fail 2/)
    expect(full.length).toBeGreaterThan(cut.length)
    expect(full.trimEnd()).toMatch(/\[exit code: 1\]$/)
    expect(printed).toMatch(/│ \[read_result res_[\w-]+: characters \d+–\d+ of \d+; this is the end\]/)
    // the passing run fits the budget and is not cut
    expect(text('n9')).not.toContain('[elided ')
  }, 120_000)

  it('Code Mode: one run_code program does the same through tools.*', async () => {
    const run = await codeRun()

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
    const [{ run: native }, code] = await Promise.all([nativeRun(), codeRun()])
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

describe('demo output', () => {
  let lines: string[] = []
  beforeAll(async () => {
    const command = await commandRun()
    expect(command.stray).toEqual([])
    expect(command.exitCode).toBe(0)
    expect(command.runs.map((run) => run.mode)).toEqual(['native', 'code'])
    // as the CLI's stdout, which ends with a newline
    lines = `${command.lines.join('\n')}\n`.split('\n')
  }, 240_000)

  it("a call's policy decisions print right under its call card, before its sub-calls and result", () => {
    const runCode = lines.findIndex((line) => line.startsWith('┌ [c1] ▸ run_code'))
    const firstSub = lines.findIndex((line) => line.includes('[code:1]'))
    const gate = lines.findIndex((line) => line.startsWith('⚖ pre-execute allow (each tool call'))
    expect(runCode).toBeGreaterThan(-1)
    expect(gate).toBeGreaterThan(runCode)
    expect(gate).toBeLessThan(firstSub)
    // every card tag ([n1], [code:3], …) is followed by its ⚖ line once its card ends
    const tagged = lines.flatMap((line, index) => (/^\s*(┌ )?\[[a-z0-9:]+\] /.test(line) ? [index] : []))
    expect(tagged.length).toBeGreaterThan(15)
    for (const index of tagged) {
      let next = index + 1
      if (lines[index]!.trimStart().startsWith('┌')) {
        while (!lines[next]!.trimStart().startsWith('└')) next += 1
        next += 1
      }
      expect(lines[next], `after ${lines[index]}`).toMatch(/^\s*⚖ /)
    }
  })

  it('the timeline and the summary count the same calls', () => {
    const timeline = lines
      .filter((line) => /^ {2}\d+ call\(s\)/.test(line))
      .map((line) => line.split(';')[0]!.trim())
    const summary = lines
      .filter((line) => /^ {2}[✓✗] /.test(line))
      .map((line) => line.match(/turns, (\d+ call\(s\)(?: \+ \d+ sub-call\(s\))?)/)?.[1])
    expect(timeline).toEqual(['12 call(s)', '1 call(s) + 7 sub-call(s)'])
    expect(summary).toEqual(timeline)
  })

  it('edit cards show the change in context, never a snippet-relative hunk header', () => {
    const text = lines.join('\n')
    expect(text).not.toMatch(/@@ -1,1 \+1,1 @@/)
    // native and Code Mode: the result card has the file's real hunk and its context lines
    const hunks = lines.filter((line) => /│ @@ -\d+,\d+ \+\d+,\d+ @@$/.test(line))
    expect(hunks.length).toBe(2)
    for (const hunk of hunks) {
      const at = lines.indexOf(hunk)
      const body = lines.slice(at + 1, at + 8).map((line) => line.replace(/^\s*│ /, ''))
      expect(body).toContain('   const start = (page - 1) * pageSize')
      expect(body).toContain('-  const end = start + pageSize - 1')
      expect(body).toContain('+  const end = start + pageSize')
      expect(body).toContain('   return items.slice(start, end)')
    }
  })

  it('prints no build output', () => {
    expect(lines[0]).toMatch(/^dsh-tools agent demo/)
  })
})

describe('demo outcome', () => {
  it('a model that fixes nothing leaves the suite failing, so the demo reports failure', async () => {
    const model = new ScriptedModel('lazy', [{ text: 'Looks fine to me.', toolCalls: [] }])
    const run = await runDemo({ mode: 'native', model })
    expect(run.outcome.turns).toBe(1)
    expect(run.after.passed).toBe(false)
  }, 60_000)

  it('native mode: a deferred tool is not offered before tool_search loads it', async () => {
    const model = new ScriptedModel('impatient', [
      { text: '', toolCalls: [{ id: 'x1', name: 'glob', arguments: { pattern: '**/*.js' } }] },
    ])
    await expect(runDemo({ mode: 'native', model })).rejects.toThrow(
      /`glob`, which this request does not offer/,
    )
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

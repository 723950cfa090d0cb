/**
 * Red-team findings on the default boundary (QuickJS in a worker thread) that need a precise
 * assertion rather than a corpus host: what crosses the bridge arrives as plain JSON, a program
 * cannot pile unbounded argument text onto the worker's Node heap in one turn, a tool result the
 * program could never hold is refused before it is sent, and calls made after the program
 * returned never reach a tool. Every run is followed by a normal one, with no worker left busy.
 */
import type { CodeRunOutcome } from '@dsh/tools-codemode'
import { afterAll, describe, expect, it } from 'vitest'
import { createWorkerThreadRuntime } from '../src/index'
import { type FakeTool, fakeHost, request } from './fixtures/host'

// The smallest engine cap: 16 MiB, so the outbox allows 2 Mi units per turn and replies 4 Mi.
const runtime = createWorkerThreadRuntime({
  engine: 'quickjs',
  warmWorkers: 1,
  computeMs: 4_000,
  maxWallMs: 60_000,
  maxOutputBytes: 1_000_000,
  maxOldGenerationSizeMb: 16,
})
// For the runs that only end on computeMs: the same outcome without seconds of CPU.
const brief = createWorkerThreadRuntime({
  engine: 'quickjs',
  warmWorkers: 0,
  computeMs: 300,
  maxWallMs: 60_000,
  maxOldGenerationSizeMb: 16,
})
afterAll(() => Promise.all([runtime.dispose(), brief.dispose()]))

async function run(code: string, tools: Record<string, FakeTool>, on = runtime) {
  const fake = fakeHost(tools)
  const outcome: CodeRunOutcome = await on.run(request(code, Object.keys(tools)), fake.host)
  await on.whenIdle()
  expect(on.stats()).toMatchObject({ runningWorkers: 0, exitingWorkers: 0 })
  const next = fakeHost({})
  expect(await on.run(request('return "next"'), next.host)).toMatchObject({ ok: true, result: 'next' })
  return { outcome, calls: fake.calls }
}

/** The result of a run that must have succeeded. */
function resultOf<T>(outcome: CodeRunOutcome): T {
  if (!outcome.ok) throw new Error(`the run failed (${outcome.kind}): ${outcome.message}`)
  return outcome.result as T
}

describe('QuickJS red team: values crossing the bridge', () => {
  it('delivers __proto__ and constructor keys as own data, never as prototypes', async () => {
    const { outcome, calls } = await run(
      `await tools.echo(JSON.parse('{"__proto__": {"polluted": "yes"}, "text": "p"}'))
      await tools.echo({ constructor: { prototype: { polluted: 'yes' } }, text: 'c' })
      return ({} as any).polluted ?? 'clean'`,
      { echo: (args) => args as never },
    )
    expect(outcome).toMatchObject({ ok: true, result: 'clean' })
    expect(calls).toHaveLength(2)
    for (const { args } of calls) {
      expect(Object.getPrototypeOf(args)).toBe(Object.prototype)
      expect((args as { polluted?: unknown }).polluted).toBeUndefined()
    }
    expect(Object.keys(calls[0]?.args as object)).toEqual(['__proto__', 'text'])
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined()
  })

  it('keeps lone surrogates and refuses non-JSON numbers, BigInts and symbols by path', async () => {
    const { outcome, calls } = await run(
      `const out: unknown[] = []
      const probe = async (args: unknown) => {
        try { out.push(await tools.echo(args as any)) } catch (e: any) { out.push(e.message) }
      }
      await probe({ text: '\\ud800x\\udc00' })
      for (const bad of [NaN, -Infinity, 10n, Symbol('s')]) await probe({ deep: [{ bad }] })
      return out`,
      { echo: (args) => (args as { text?: string }).text ?? null },
    )
    expect(calls).toHaveLength(1)
    expect(calls[0]?.args).toEqual({ text: '\ud800x\udc00' })
    const out = resultOf<unknown[]>(outcome)
    expect(out[0]).toBe('\ud800x\udc00')
    for (const message of out.slice(1)) expect(message).toMatch(/are not JSON: .* at \$\.deep\[0\]\.bad$/)
  })
})

describe('QuickJS red team: argument text held in one turn', () => {
  it('refuses calls past the per-turn outbox cap in the guest, before they leave the worker', async () => {
    const { outcome, calls } = await run(
      `const big = 'x'.repeat(512 * 1024)
      const settled = await Promise.all(Array.from({ length: 40 }, () =>
        tools.size({ text: big }).then(() => 'sent', (e: any) => e.message)))
      return { sent: settled.filter((s) => s === 'sent').length, refusals: settled.filter((s) => s !== 'sent') }`,
      { size: (args) => (args as { text: string }).text.length },
    )
    const { sent, refusals } = resultOf<{ sent: number; refusals: string[] }>(outcome)
    // 2 Mi units per turn hold three calls of ~512 Ki, the one sent at once included.
    expect(sent).toBe(3)
    expect(calls).toHaveLength(3)
    expect(refusals).toHaveLength(37)
    for (const message of refusals) expect(message).toMatch(/characters of tool calls .* await earlier calls/)
  })

  it('lets the next turn send again once the program yields', async () => {
    const { outcome, calls } = await run(
      `const big = 'x'.repeat(512 * 1024)
      let sent = 0
      for (let i = 0; i < 12; i++) {
        const wave = [tools.size({ text: big }), tools.size({ text: big })]
        sent += (await Promise.all(wave)).length
      }
      return sent`,
      { size: (args) => (args as { text: string }).text.length },
    )
    expect(outcome).toMatchObject({ ok: true, result: 24 })
    expect(calls).toHaveLength(24)
  })
})

describe('QuickJS red team: bursts of calls', () => {
  it('splits a burst of thousands of calls made in one turn into batches, every reply to its call', async () => {
    const { outcome, calls } = await run(
      `const replies = await Promise.all(Array.from({ length: 3000 }, (_, i) => tools.echo({ n: i })))
      return replies.every((r: any, i) => r.n === i) ? replies.length : 'mismatch'`,
      { echo: (args) => args as never },
    )
    expect(outcome).toMatchObject({ ok: true, result: 3000 })
    expect(calls.map((call) => (call.args as { n: number }).n)).toEqual(
      Array.from({ length: 3000 }, (_, i) => i),
    )
  })
})

describe('QuickJS red team: large calls in one turn', () => {
  it('sends calls whose text passes a batch size as they are made, in order and all answered', async () => {
    const { outcome, calls } = await run(
      `const chunk = 'c'.repeat(300 * 1024)
      const replies = await Promise.all(Array.from({ length: 6 }, (_, i) => tools.size({ text: chunk + i })))
      return replies`,
      { size: (args) => (args as { text: string }).text.length },
    )
    expect(outcome).toMatchObject({ ok: true, result: Array.from({ length: 6 }, () => 300 * 1024 + 1) })
    expect(calls.map((call) => (call.args as { text: string }).text.slice(-1))).toEqual([
      '0',
      '1',
      '2',
      '3',
      '4',
      '5',
    ])
  })
})

describe('QuickJS red team: tool results', () => {
  it('answers a result the program could not hold with an error, strings and objects alike', async () => {
    const huge = 'y'.repeat(5 * 1024 * 1024)
    const { outcome } = await run(
      `const out: unknown[] = []
      for (const kind of ['string', 'object', 'small']) {
        try { const r: any = await tools.big({ kind }); out.push(typeof r === 'string' ? r.length : r.s.length) }
        catch (e: any) { out.push(e.message) }
      }
      return out`,
      {
        big: (args) => {
          const kind = (args as { kind: string }).kind
          return kind === 'string' ? huge : kind === 'object' ? { s: huge } : 'z'.repeat(1024 * 1024)
        },
      },
    )
    const [asString, asObject, small] = resultOf<unknown[]>(outcome)
    expect(asString).toMatch(/the result of big is too large for the program: 5242880 characters/)
    // Counted before its text is built (a bound, not the exact length).
    expect(asObject).toMatch(/the result of big is too large for the program: more than 4194304 characters/)
    expect(small).toBe(1024 * 1024)
  })
})

describe('QuickJS red team: timers', () => {
  it('refuses a timer storm at 10,000 pending timers, and frees a slot per cleared or fired timer', async () => {
    const { outcome } = await run(
      `const ids: number[] = []
      let refusal = ''
      try { for (let i = 0; i < 1e6; i++) ids.push(setTimeout(() => {}, 1e9)) } catch (e: any) { refusal = e.name + ': ' + e.message }
      const storm = ids.length
      for (const id of ids.splice(0, 5)) clearTimeout(id)
      await new Promise((resolve) => setTimeout(resolve, 1))
      let more = 0
      try { for (let i = 0; i < 10; i++) { setTimeout(() => {}, 1e9); more++ } } catch {}
      return { storm, refusal, more }`,
      {},
    )
    expect(resultOf(outcome)).toEqual({
      storm: 10_000,
      refusal: 'RangeError: too many pending timers: at most 10000 at once',
      more: 5,
    })
  })
})

describe('QuickJS red team: calls after the program returned', () => {
  it('never lets a timer or a kept binding reach a tool once the program has returned', async () => {
    const { outcome, calls } = await run(
      `const keep = tools.echo
      setTimeout(() => { for (let i = 0; i < 100; i++) keep({ text: 'late' }) }, 0)
      setInterval(() => tools.echo({ text: 'interval' }), 1)
      Promise.resolve().then(() => new Promise((r) => setTimeout(r, 5))).then(() => tools.echo({ text: 'chained' }))
      return 'returned'`,
      { echo: (args) => args as never },
    )
    expect(outcome).toMatchObject({ ok: true, result: 'returned' })
    expect(calls).toEqual([])
  })

  it('runs no guest code after computeMs, not even a finally block', async () => {
    const { outcome, calls } = await run(
      `try { for (;;) {} } finally { tools.echo({ text: 'finally' }); console.log('finally ran') }`,
      { echo: (args) => args as never },
      brief,
    )
    expect(outcome).toMatchObject({ ok: false, kind: 'timeout' })
    expect(calls).toEqual([])
    expect(outcome.logs).toEqual([])
  })
})

// Host-side limits of the dispatch bridge, through ctx.tools.execute with the in-process TEST
// DOUBLE runtime: the limits live in the bridge, so they hold for every CodeRuntime.
import type { Context } from '@deepseek-ai/cordis'
import { defineTool, type ToolExecutionResult } from '@dsh/tools-core'
import { afterEach, describe, expect, it } from 'vitest'
import type { CodeModeConfig } from '../src/config'
import { createApp, deferred, runCode, until } from './fixtures/app'
import { createInProcessRuntime } from './fixtures/in-process-runtime'

let app: Context | undefined
afterEach(async () => {
  await app?.fiber.dispose()
  app = undefined
})

/** Counters of what reached policy and bodies. */
interface Reached {
  policy: number
  bodies: number
  args: unknown[]
}

/** An app with a counting `take` tool (any JSON args) and a `gate` tool held until released. */
async function start(config: CodeModeConfig = {}) {
  const reached: Reached = { policy: 0, bodies: 0, args: [] }
  const gates: (() => void)[] = []
  app = await createApp({ runtime: createInProcessRuntime(), config })
  app.on('tools/pre-execute', (exec, next) => {
    if (exec.name !== 'run_code') reached.policy++
    return next()
  })
  app.tools.register(
    defineTool({
      name: 'take',
      description: 'Counts its arguments.',
      parameters: { s: { type: 'string' }, n: { type: 'number' }, v: { type: 'json' } },
      output: { schema: { type: 'integer' }, render: () => [{ type: 'text', text: 'taken' }] },
      isConcurrencySafe: () => true,
      execute(args) {
        reached.bodies++
        reached.args.push(args)
        return Object.keys(args).length
      },
    }),
  )
  app.tools.register(
    defineTool({
      name: 'gate',
      description: 'Waits until released.',
      parameters: { text: { type: 'string' } },
      output: { schema: { type: 'string' }, render: () => [{ type: 'text', text: 'ok' }] },
      isConcurrencySafe: () => true,
      async execute() {
        reached.bodies++
        const gate = deferred()
        gates.push(gate.resolve)
        await gate.promise
        return 'ok'
      },
    }),
  )
  return { ctx: app, reached, gates }
}

/** The `result` of a successful run. */
function resultOf(run: ToolExecutionResult): unknown {
  expect(run.isError).toBe(false)
  return (run as { value: { result?: unknown } }).value.result
}

/** Program text: settle `calls` and report fulfilled count and rejection messages. */
const settleAll = (calls: string) => `
  const settled = await Promise.allSettled(${calls})
  return {
    ok: settled.filter((s) => s.status === 'fulfilled').length,
    errors: settled.filter((s) => s.status === 'rejected').map((s) => s.reason.name + ': ' + s.reason.message),
  }`

describe('undefined optional arguments', () => {
  it('drops undefined-valued properties at any depth before the call reaches the tool', async () => {
    const { ctx, reached } = await start()
    const run = await runCode(
      ctx,
      "return await tools.take({ s: 'x', n: undefined, v: { a: undefined, b: [{ c: undefined }] } })",
    )
    expect(resultOf(run)).toBe(2)
    expect(reached.args).toEqual([{ s: 'x', v: { b: [{}] } }])
    expect(Object.hasOwn(reached.args[0] as object, 'n')).toBe(false)
  })

  it('keeps rejecting everything else that is lossy, per call', async () => {
    const { ctx, reached } = await start()
    const run = await runCode(
      ctx,
      settleAll(
        "[tools.take({ v: [1, undefined] }), tools.take({ n: NaN }), tools.take({ v: () => 1 }), tools.take({ v: new Date() }), tools.take({ s: 'fine' })]",
      ),
    )
    const value = resultOf(run) as { ok: number; errors: string[] }
    expect(value.ok).toBe(1)
    expect(value.errors).toEqual([
      'ToolCallError: arguments are not lossless JSON: $.v[1]: undefined is not JSON',
      'ToolCallError: arguments are not lossless JSON: $.n: NaN is not JSON',
      'ToolCallError: arguments are not lossless JSON: $.v: a function is not JSON',
      'ToolCallError: arguments are not lossless JSON: $.v: a Date is not a plain JSON object',
    ])
    expect(reached.bodies).toBe(1)
  })

  it('a native call still rejects undefined (model JSON never holds it)', async () => {
    const { ctx, reached } = await start()
    const result = await ctx.tools.execute({
      callId: 'native-1',
      name: 'take',
      arguments: { s: 'x', n: undefined },
      signal: new AbortController().signal,
    })
    expect(result.isError && result.error.info?.code).toBe('INVALID_ARGS')
    expect(result.isError && result.error.message).toContain('$.n: undefined is not JSON')
    expect(reached.bodies).toBe(0)
  })
})

describe('argument budgets', () => {
  it('a 40-level shared-reference bomb rejects on maxArgumentNodes before policy', async () => {
    const { ctx, reached } = await start()
    const run = await runCode(
      ctx,
      `let v = ['x']; for (let i = 0; i < 40; i++) v = [v, v]
       ${settleAll('[tools.take({ v })]')}`,
    )
    const value = resultOf(run) as { errors: string[] }
    expect(value.errors).toHaveLength(1)
    expect(value.errors[0]).toMatch(
      /^ToolCallError: arguments too large: counting stopped at \$\.v(\[[01]\])+, past the Code Mode limit `maxArgumentNodes` \(20000 JSON values/,
    )
    expect(reached).toMatchObject({ policy: 0, bodies: 0 })
  })

  it('a string repeated through shared references rejects on maxArgumentStringLength', async () => {
    const { ctx, reached } = await start({ maxArgumentStringLength: 1_000_000 })
    const run = await runCode(
      ctx,
      `let v = ['x'.repeat(1000)]; for (let i = 0; i < 20; i++) v = [v, v]
       ${settleAll('[tools.take({ v })]')}`,
    )
    expect((resultOf(run) as { errors: string[] }).errors[0]).toContain(
      '`maxArgumentStringLength` (1000000 string code units',
    )
    expect(reached.bodies).toBe(0)
  })

  it('ordinary large arguments pass under the defaults: 10 MB of text, 19,998 values', async () => {
    const { ctx, reached } = await start()
    const run = await runCode(
      ctx,
      `await tools.take({ s: 'x'.repeat(10_000_000) })
       await tools.take({ v: Array.from({ length: 19_998 }, (_, i) => i) })
       return 'ok'`,
    )
    expect(resultOf(run)).toBe('ok')
    expect(reached.bodies).toBe(2)
  })
})

describe('per-run call limits', () => {
  it('calls past maxSubCallsPerRun reject naming the limit and reach neither policy nor a body', async () => {
    const { ctx, reached } = await start({ maxSubCallsPerRun: 5 })
    const run = await runCode(
      ctx,
      `const errors = []
       for (let i = 0; i < 8; i++) { try { await tools.take({ n: i }) } catch (e) { errors.push(e.name + ': ' + e.message) } }
       try { await tools.nope({}) } catch (e) { errors.push(e.message) }
       return errors`,
    )
    const errors = resultOf(run) as string[]
    expect(errors).toHaveLength(4)
    expect(errors[0]).toBe(
      'ToolCallError: call limit reached: a run_code program may make at most 5 tool calls (Code Mode limit `maxSubCallsPerRun`)',
    )
    expect(reached).toMatchObject({ policy: 5, bodies: 5 })
    // the limit is per run: the next run starts afresh
    const again = await runCode(ctx, "return await tools.take({ s: 'again' })")
    expect(resultOf(again)).toBe(1)
  })

  it('calls past maxOutstandingSubCalls reject while others run, and are admitted again once they settle', async () => {
    const { ctx, reached, gates } = await start({ maxOutstandingSubCalls: 3 })
    const pending = runCode(
      ctx,
      `const first = await Promise.allSettled([1, 2, 3, 4, 5].map((i) => tools.gate({ text: String(i) })))
       const later = await tools.take({ n: 1 })
       return { first: first.map((s) => s.status === 'fulfilled' ? 'ok' : s.reason.message), later }`,
    )
    await until(() => gates.length === 3)
    for (const release of gates) release()
    const value = resultOf(await pending) as { first: string[]; later: number }
    expect(value.first.slice(0, 3)).toEqual(['ok', 'ok', 'ok'])
    expect(value.first[3]).toBe(
      'too many outstanding calls: 3 tool calls of this run are already queued or running; await some before making more (Code Mode limit `maxOutstandingSubCalls`)',
    )
    expect(value.first[4]).toBe(value.first[3])
    expect(value.later).toBe(1)
    expect(reached).toMatchObject({ policy: 4, bodies: 4 })
  })

  it('queued argument bytes past maxQueuedArgumentBytes reject; a call that starts at once is not queued', async () => {
    // each call holds 'x' × 1000 + key 'text' + 2 values = 1006 bytes
    const { ctx, reached, gates } = await start({ maxParallelSubCalls: 1, maxQueuedArgumentBytes: 3000 })
    const pending = runCode(
      ctx,
      `${settleAll('[1, 2, 3, 4].map((i) => tools.gate({ text: String(i % 10).repeat(1000) }))')}`,
    )
    await until(() => gates.length === 1)
    while (reached.bodies < 3 || gates.length > 0) {
      gates.shift()?.()
      await new Promise((r) => setTimeout(r, 1))
    }
    const value = resultOf(await pending) as { ok: number; errors: string[] }
    expect(value.ok).toBe(3)
    expect(value.errors).toEqual([
      "ToolCallError: too many argument bytes queued: this call's 1006 bytes would take the run's queue past 3000 bytes; await earlier calls first (Code Mode limit `maxQueuedArgumentBytes`)",
    ])
    expect(reached.policy).toBe(3)
  })

  it('2,000 queued calls × 512 KiB under the defaults: at most 64 MiB ever waits, the rest reject at once', async () => {
    const { ctx, reached, gates } = await start()
    const pending = runCode(
      ctx,
      `const big = 'x'.repeat(512 * 1024)
       const calls = []
       for (let i = 0; i < 2000; i++) calls.push(tools.gate({ text: big + i }))
       ${settleAll('calls')}`,
    )
    await until(() => gates.length === 10)
    while (gates.length > 0) {
      gates.shift()?.()
      await new Promise((r) => setImmediate(r))
    }
    const value = resultOf(await pending) as { ok: number; errors: string[] }
    // 10 start at once (maxParallelSubCalls); 64 MiB holds 127 calls of ~512 KiB in the queue
    expect(value.ok).toBe(10 + 127)
    expect(value.errors).toHaveLength(2000 - 137)
    expect(value.errors.every((e) => e.includes('`maxQueuedArgumentBytes`'))).toBe(true)
    expect(reached.bodies).toBe(137)
  })
})

/**
 * Red-team findings on the full stack (cordis, `ToolRuntime` in code mode, this runtime and Code
 * Mode with real tools) that the corpora missed, on both engines:
 *
 * - a result whose serialization runs a throwing getter (own, inherited from a patched
 *   prototype, or a Proxy trap) ends the run at once as `invalid-output` — QuickJS waited for
 *   `maxWallMs`, because the throw only rejected a promise nobody awaited;
 * - a host tool whose value shares references (a "DAG bomb") is refused before its JSON text is
 *   built — the host used to stall for minutes and grow by gigabytes expanding it;
 * - a host tool whose error message is huge (100 MB) no longer aborts the host process: the
 *   QuickJS worker's capped heap hit a fatal out-of-memory while reading it, which V8 raises for
 *   the whole process; the message is now cut to what the program may receive;
 * - a host tool that never settles, even after the run's signal aborted, no longer holds
 *   `run_code` open forever, whether the program awaits it (the run times out) or returned
 *   while it was outstanding.
 *
 * Each run is followed by a normal one, and no run worker is left running.
 */
import { Context } from '@deepseek-ai/cordis'
import * as CodeMode from '@dsh/tools-codemode'
import ToolRuntime, { defineTool } from '@dsh/tools-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CodeEngine, createWorkerThreadRuntime, type WorkerThreadRuntime } from '../src/index'
import { runCode, textOf } from './fixtures/code-mode-app'
import { ENGINES } from './fixtures/engines'

const json = { type: 'json' } as const

/** A value whose JSON text is 2^levels copies of `[leaf]`, in a few hundred bytes of memory. */
function dagBomb(levels: number, leaf = 'x'): unknown {
  let value: unknown = [leaf]
  for (let i = 0; i < levels; i++) value = [value, value]
  return value
}

describe.each(ENGINES)('full stack red team (%s)', (engine: CodeEngine) => {
  let runtime: WorkerThreadRuntime
  let ctx: Context
  let neverStarted = 0
  let neverAborted = 0

  beforeAll(async () => {
    runtime = createWorkerThreadRuntime({
      engine,
      warmWorkers: 1,
      computeMs: 5_000,
      maxWallMs: 60_000,
      maxOldGenerationSizeMb: 16,
    })
    ctx = new Context()
    await ctx.plugin(ToolRuntime, { mode: 'code' })
    await ctx.plugin({ name: 'runtime', apply: (child: Context) => child.provide('codeRuntime', runtime) })
    await ctx.plugin(CodeMode, { subCallDrainMs: 100 })
    ctx.tools.register(
      defineTool({
        name: 'bomb',
        description: 'Return a value with shared references.',
        parameters: { levels: { type: 'number', required: true }, leaf: { type: 'number' } },
        output: { schema: json, render: () => [{ type: 'text', text: 'bomb' }] },
        isConcurrencySafe: () => true,
        execute: (args) => dagBomb(args.levels, 'x'.repeat(args.leaf ?? 1)) as never,
      }),
    )
    ctx.tools.register(
      defineTool({
        name: 'loud',
        description: 'Fail with a message of the given size.',
        parameters: { size: { type: 'number', required: true } },
        output: { schema: json, render: () => [{ type: 'text', text: 'loud' }] },
        execute: (args) => {
          throw new Error('x'.repeat(args.size))
        },
      }),
    )
    ctx.tools.register(
      defineTool({
        name: 'never',
        description: 'Never settle, and ignore the abort.',
        parameters: {},
        output: { schema: json, render: () => [{ type: 'text', text: 'never' }] },
        isConcurrencySafe: () => true,
        execute: (_args, run) => {
          neverStarted++
          run.signal.addEventListener('abort', () => neverAborted++)
          return new Promise<never>(() => {})
        },
      }),
    )
  })

  afterAll(async () => {
    await ctx.fiber.dispose()
    await runtime.dispose()
  })

  async function run(code: string) {
    const result = await runCode(ctx, code)
    await runtime.whenIdle()
    expect(runtime.stats()).toMatchObject({ runningWorkers: 0, exitingWorkers: 0 })
    expect(textOf(await runCode(ctx, 'return "next"'))).toBe('next')
    return result
  }

  it('ends a run whose result throws while it is serialized as invalid-output, at once', async () => {
    const programs = [
      `return { a: 1, get b() { throw new Error('own getter') } }`,
      `return [1, { get deep(): number { throw new Error('nested getter') } }]`,
      // The serializer's own bookkeeping arrays inherit this setter.
      `Object.defineProperty(Object.prototype, '0', { set() { throw new Error('inherited setter') }, configurable: true })
      return [[1]]`,
      `return new Proxy({ a: 1 }, { ownKeys() { throw new Error('trap') } })`,
      `return { get x() { throw { get message(): string { throw new Error('hostile') } } } }`,
    ]
    for (const code of programs) {
      const result = await run(code)
      expect(result.isError, code).toBe(true)
      // Never the wall-time budget: that was the bug.
      expect(textOf(result), code).not.toMatch(/timeout|maxWallMs/)
      expect(textOf(result), code).toMatch(/invalid-output|exception/)
    }
  })

  it('refuses a tool value whose JSON text would outgrow the program, before building it', async () => {
    const result = await run(
      `const out: unknown[] = []
      for (const args of [{ levels: 4 }, { levels: 40 }, { levels: 3, leaf: 1_300_000 }]) {
        try { out.push(JSON.stringify(await tools.bomb(args)).length) }
        catch (e: any) { out.push(e.name + ': ' + e.message) }
      }
      return out`,
    )
    expect(result.isError).toBe(false)
    const [small, bomb, wide] = (result as unknown as { value: { result: unknown[] } }).value.result
    expect(small).toBe(JSON.stringify(dagBomb(4)).length)
    // 2^40 shared leaves: tools-core's valueLimits count every occurrence and refuse the value
    // before anything is built from it.
    expect(bomb).toMatch(
      /^ToolCallError: tool `bomb` returned a value past the runtime's valueLimits: .*exceeds maxNodes \(more than 500000 JSON values; shared references count at every occurrence\)$/,
    )
    // Eight references to one 1.3 MB string pass those limits; the program's own cap (a quarter
    // of its 16 MB heap) refuses the 10 MB text, measured before it is built.
    expect(wide).toMatch(
      /^ToolCallError: the result of bomb is too large for the program: more than \d+ characters/,
    )
  })

  it('survives a tool error message far larger than the program may hold', async () => {
    const result = await run(
      `try { await tools.loud({ size: 100 * 1024 * 1024 }); return 'no' }
      catch (e: any) { return [e.name, e.message.length, e.message.slice(-80)] }`,
    )
    // Either the program reads the cut message, or its capped memory cannot hold even that and
    // the run ends as worker-exit; the host process lives on (\`run\` checks the next run).
    if (result.isError) expect(textOf(result)).toMatch(/worker-exit|out of memory/)
    else {
      const [name, length, tail] = (result as unknown as { value: { result: [string, number, string] } })
        .value.result
      expect(name).toBe('ToolCallError')
      expect(length).toBeLessThanOrEqual(4 * 1024 * 1024)
      expect(tail).toMatch(/cut from 104857600 characters/)
    }
  })

  it('returns when the program awaits a tool that never settles and the run times out', async () => {
    const before = neverStarted
    const short = createWorkerThreadRuntime({ engine, warmWorkers: 0, maxWallMs: 300 })
    const app = new Context()
    await app.plugin(ToolRuntime, { mode: 'code' })
    await app.plugin({ name: 'runtime', apply: (child: Context) => child.provide('codeRuntime', short) })
    await app.plugin(CodeMode, { subCallDrainMs: 100 })
    app.tools.register(neverTool(() => neverStarted++))
    try {
      const result = await runCode(app, 'return await tools.never({})')
      expect(result.isError).toBe(true)
      expect(textOf(result)).toMatch(/timeout/)
      expect(neverStarted).toBe(before + 1)
      await short.whenIdle()
      expect(short.stats()).toMatchObject({ liveWorkers: 0 })
    } finally {
      await app.fiber.dispose()
      await short.dispose()
    }
  })

  it('returns the result of a program that finished while calls to such a tool were outstanding', async () => {
    const before = { started: neverStarted, aborted: neverAborted }
    const result = await run(`tools.never({}); tools.never({}); await null; return 'early'`)
    expect(result).toMatchObject({ isError: false })
    expect(textOf(result)).toBe('early')
    // The calls that started (a call still in flight to the host when the program returned is
    // dropped) saw the run's signal abort; none held the run open.
    const started = neverStarted - before.started
    expect(started).toBeGreaterThanOrEqual(1)
    expect(neverAborted - before.aborted).toBe(started)
  })
})

function neverTool(onStart: () => void) {
  return defineTool({
    name: 'never',
    description: 'Never settle, and ignore the abort.',
    parameters: {},
    output: { schema: json, render: () => [{ type: 'text', text: 'never' }] },
    execute: () => {
      onStart()
      return new Promise<never>(() => {})
    },
  })
}

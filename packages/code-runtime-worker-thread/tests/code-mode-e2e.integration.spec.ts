// End to end with real worker threads: ctx.tools.execute({ name: 'run_code' }) → bridge →
// @dsh/code-runtime-worker-thread → bindings → the full tool pipeline.
import { Context } from '@deepseek-ai/cordis'
import type { CodeDispatchResult, CodeDispatchStart } from '@dsh/tools-codemode'
import * as CodeMode from '@dsh/tools-codemode'
import ToolRuntime, { defineTool } from '@dsh/tools-core'
import { afterEach, describe, expect, it } from 'vitest'
import WorkerThreadCodeRuntime, { type WorkerThreadRuntimeConfig } from '../src/index'
import { addTool, deferred, echoTool, runCode, textOf, until } from './fixtures/code-mode-app'

let app: Context | undefined
afterEach(async () => {
  await app?.fiber.dispose()
  app = undefined
})

async function start(
  options: { mode?: 'code' | 'both'; runtime?: WorkerThreadRuntimeConfig; maxParallelSubCalls?: number } = {},
) {
  const ctx = new Context()
  app = ctx
  await ctx.plugin(ToolRuntime, { mode: options.mode ?? 'code' })
  // No warm workers unless a test asks: each test's app runs a program or two, so workers booted
  // ahead would mostly be booted for nothing (the warm pool is runtime.integration's subject).
  await ctx.plugin(WorkerThreadCodeRuntime, { warmWorkers: 0, ...options.runtime })
  await ctx.plugin(
    CodeMode,
    options.maxParallelSubCalls === undefined ? {} : { maxParallelSubCalls: options.maxParallelSubCalls },
  )
  ctx.tools.register(addTool)
  ctx.tools.register(echoTool)
  return ctx
}

const stats = (ctx: Context) =>
  (ctx.codeRuntime as unknown as { stats(): { runningWorkers: number; queuedRuns: number } }).stats()

describe('Code Mode with worker threads', () => {
  it('runs sequential sub-calls in a typed program', async () => {
    const ctx = await start()
    const result = await runCode(
      ctx,
      `const first: number = await tools.add({ a: 1, b: 2 })
      const second = await tools.add({ a: first, b: 10 })
      console.log('sum is', second)
      return { first, second }`,
    )
    expect(result).toMatchObject({
      isError: false,
      value: { logs: ['sum is 13'], result: { first: 3, second: 13 } },
    })
    expect(textOf(result)).toBe('sum is 13\n{\n  "first": 3,\n  "second": 13\n}')
  })

  it('runs Promise.all sub-calls, overlapping up to maxParallelSubCalls', async () => {
    const ctx = await start({ maxParallelSubCalls: 4 })
    let active = 0
    let maxActive = 0
    ctx.tools.register(
      defineTool({
        name: 'slow_echo',
        description: 'Echo after a tick.',
        parameters: { text: { type: 'string', required: true } },
        output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
        isConcurrencySafe: () => true,
        async execute(args) {
          active++
          maxActive = Math.max(maxActive, active)
          await new Promise<void>((resolve) => setTimeout(resolve, 2))
          active--
          return args.text
        },
      }),
    )
    const result = await runCode(
      ctx,
      `const words = await Promise.all(Array.from({ length: 20 }, (_, i) => tools.slow_echo({ text: 'w' + i })))
      return words.join(',')`,
    )
    expect(result).toMatchObject({ isError: false })
    expect(textOf(result)).toBe(Array.from({ length: 20 }, (_, i) => `w${i}`).join(','))
    expect(maxActive).toBe(4)
  })

  it('a denied sub-call is a ToolCallError the program catches and continues after', async () => {
    const ctx = await start()
    ctx.tools.guard((execution) => (execution.name === 'add' ? 'add is switched off' : undefined))
    const result = await runCode(
      ctx,
      `try {
        await tools.add({ a: 1, b: 1 })
        return 'unreachable'
      } catch (error) {
        if (!(error instanceof ToolCallError)) throw error
        console.log(error.toolName + ': ' + error.message)
      }
      return await tools.echo({ text: 'continued' })`,
    )
    expect(result.isError).toBe(false)
    expect(textOf(result)).toMatch(/^add: .*add is switched off\ncontinued$/)
  })

  it('a failing program is CODE_RUN_FAILED with its captured output', async () => {
    const ctx = await start()
    const result = await runCode(ctx, `console.log('step 1')\nthrow new Error('boom')`)
    expect(result).toMatchObject({ isError: true, error: { info: { code: 'CODE_RUN_FAILED' } } })
    expect(textOf(result)).toMatch(
      /^Error: code run failed \(exception\): .*boom[\s\S]*\nCaptured output:\nstep 1$/,
    )
  })

  it.each([
    ['exception (enum is not erasable)', {}, 'enum Color { Red }\nreturn 1', 'exception'],
    ['timeout (compute budget)', { computeMs: 150 }, 'while (true) {}', 'timeout'],
    ['output-limit', { maxOutputBytes: 1024 }, "console.log('x'.repeat(4096))", 'output-limit'],
    ['invalid-output', {}, 'return { big: 1n }', 'invalid-output'],
    [
      'exception (QuickJS memory cap)',
      { maxOldGenerationSizeMb: 16 },
      'const keep = []\nwhile (true) keep.push(new Uint8Array(1 << 20))',
      'exception',
    ],
    [
      'worker-exit (node-vm heap cap)',
      { engine: 'node-vm', maxOldGenerationSizeMb: 16 },
      'const keep = []\nwhile (true) keep.push(new Array(100000).fill({ a: 1 }))',
      'worker-exit',
    ],
  ] as const)('surfaces %s with the failure text', async (_label, config, code, kind) => {
    const ctx = await start({ runtime: config })
    const result = await runCode(ctx, code)
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(new RegExp(`^Error: code run failed \\(${kind}\\): `))
    expect(stats(ctx).runningWorkers).toBe(0)
  })

  it('aborting the outer call mid-run aborts the running sub-tool, ends ABORTED and leaves no worker behind', async () => {
    const ctx = await start()
    const entered = deferred()
    let sawAbort = false
    ctx.tools.register(
      defineTool({
        name: 'block',
        description: 'Blocks until aborted.',
        parameters: { note: { type: 'string' } },
        output: { schema: { type: 'integer' }, render: () => [{ type: 'text', text: 'ok' }] },
        async execute(_args, exec) {
          entered.resolve()
          const aborted = deferred()
          exec.signal.addEventListener('abort', () => aborted.resolve(), { once: true })
          await aborted.promise
          sawAbort = true
          return 0 as number
        },
      }),
    )
    const controller = new AbortController()
    const running = runCode(ctx, `console.log('before')\nawait tools.block({})\nreturn 'unreachable'`, {
      signal: controller.signal,
    })
    await entered.promise
    controller.abort()
    const result = await running
    expect(sawAbort).toBe(true)
    expect(result.isError).toBe(true)
    expect(result).toMatchObject({ isError: true, error: { info: { code: 'ABORTED' } } })
    expect(textOf(result)).toBe('Error: code run aborted: the run was aborted\nCaptured output:\nbefore')
    expect(stats(ctx).runningWorkers).toBe(0)
  })

  it('emits dispatch events with ids <callId>:code:<n> and the final content', async () => {
    const ctx = await start()
    const starts: CodeDispatchStart[] = []
    const ends: CodeDispatchResult[] = []
    ctx.on('tool/code-dispatch-start', (event) => starts.push(event))
    ctx.on('tool/code-dispatch', (event) => ends.push(event))
    await runCode(
      ctx,
      `await tools.echo({ text: 'a' })\nawait Promise.all([tools.echo({ text: 'b' }), tools.add({ a: 1, b: 2 })])`,
      {
        callId: 'outer',
      },
    )
    expect(starts.map((event) => `${event.id} ${event.name}`)).toEqual([
      'outer:code:1 echo',
      'outer:code:2 echo',
      'outer:code:3 add',
    ])
    expect(
      ends.map((event) => `${event.id} ${event.isError} ${textOf({ content: event.content } as never)}`),
    ).toEqual(['outer:code:1 false a', 'outer:code:2 false b', 'outer:code:3 false 3'])
  })

  it('both mode keeps native calls working next to run_code', async () => {
    const ctx = await start({ mode: 'both' })
    const direct = await ctx.tools.execute({
      callId: 'n',
      name: 'echo',
      arguments: { text: 'native' },
      signal: new AbortController().signal,
    })
    expect(textOf(direct)).toBe('native')
    expect(textOf(await runCode(ctx, "return await tools.echo({ text: 'coded' })"))).toBe('coded')
    await until(() => stats(ctx).runningWorkers === 0)
  })
})

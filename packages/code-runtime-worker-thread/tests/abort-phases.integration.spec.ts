// An aborted or disposed run_code ends ABORTED (tools-core's code for aborted calls), promptly,
// and leaves no worker running — at every phase of a run: waiting for a worker slot, while its
// worker boots, while the program runs, while a sub-call is pending, and while a sub-call's result
// is on its way back. Real worker threads, the full Code Mode pipeline.
import { Context } from '@deepseek-ai/cordis'
import * as CodeMode from '@dsh/tools-codemode'
import { deferred, runCode, resultText as textOf } from '@dsh/tools-codemode/testing'
import ToolRuntime, { defineTool, type ToolExecutionResult } from '@dsh/tools-core'
import { afterEach, describe, expect, it } from 'vitest'
import {
  createWorkerThreadRuntime,
  type WorkerThreadRuntime,
  type WorkerThreadRuntimeConfig,
} from '../src/index'

/** Poll `predicate` every 5 ms for up to 15 s (workers boot slowly on a loaded machine). */
async function until(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 3_000 && !predicate(); i++) await new Promise((resolve) => setTimeout(resolve, 5))
  if (!predicate()) throw new Error('condition never held')
}

let app: Context | undefined
let runtime: WorkerThreadRuntime | undefined
afterEach(async () => {
  await app?.fiber.dispose()
  await runtime?.dispose()
  app = undefined
  runtime = undefined
})

async function start(config: WorkerThreadRuntimeConfig = {}) {
  const ctx = new Context()
  app = ctx
  const owned = createWorkerThreadRuntime({ warmWorkers: 0, ...config })
  runtime = owned
  await ctx.plugin(ToolRuntime, { mode: 'code' })
  const runtimeFork = await ctx.plugin({
    name: 'test-worker-runtime',
    apply: (child: Context) => {
      child.provide('codeRuntime', owned)
      child.effect(() => () => owned.dispose(), 'test-worker-runtime/dispose')
    },
  })
  const codeModeFork = await ctx.plugin(CodeMode)
  const entered = deferred()
  const returned = deferred()
  ctx.tools.register(
    defineTool({
      name: 'hang',
      description: 'Waits for its signal.',
      parameters: {},
      output: { schema: { type: 'integer' }, render: () => [{ type: 'text', text: 'ok' }] },
      execute: (_args, exec) => {
        entered.resolve()
        return new Promise<number>((resolve) => exec.signal.addEventListener('abort', () => resolve(0)))
      },
    }),
  )
  ctx.tools.register(
    defineTool({
      name: 'quick',
      description: 'Returns at once.',
      parameters: {},
      output: { schema: { type: 'integer' }, render: () => [{ type: 'text', text: 'ok' }] },
      execute: () => 1,
    }),
  )
  ctx.on('tool/code-dispatch', () => returned.resolve())
  return { ctx, runtime: owned, runtimeFork, codeModeFork, entered, returned }
}

/** The run ended ABORTED and no worker of it is left. */
async function expectAborted(
  result: ToolExecutionResult,
  owned: WorkerThreadRuntime,
  message: RegExp = /^Error: code run aborted: /,
) {
  expect(result).toMatchObject({ isError: true, error: { info: { code: 'ABORTED' } } })
  expect(textOf(result)).toMatch(message)
  await owned.whenIdle()
  expect(owned.stats()).toMatchObject({ liveWorkers: 0, runningWorkers: 0, queuedRuns: 0 })
}

const SPIN = 'console.log("running"); while (true) {}'

describe('aborting run_code through its signal ends it ABORTED at every phase', () => {
  it('while it waits for a worker slot', async () => {
    const { ctx, runtime: owned } = await start({ maxConcurrentRuns: 1 })
    const busy = new AbortController()
    const first = runCode(ctx, SPIN, { signal: busy.signal })
    await until(() => owned.stats().runningWorkers === 1)
    const controller = new AbortController()
    const queued = runCode(ctx, 'return 1', { signal: controller.signal })
    await until(() => owned.stats().queuedRuns === 1)
    controller.abort()
    busy.abort()
    await expectAborted(await queued, owned)
    await expectAborted(await first, owned)
  })

  it('while its worker boots', async () => {
    const { ctx, runtime: owned } = await start()
    const controller = new AbortController()
    const running = runCode(ctx, 'return 1', { signal: controller.signal })
    await until(() => owned.stats().liveWorkers === 1)
    controller.abort()
    await expectAborted(await running, owned)
  })

  it.each(['quickjs', 'node-vm'] as const)('while the program runs (%s)', async (engine) => {
    const { ctx, runtime: owned } = await start({ engine })
    const controller = new AbortController()
    const running = runCode(ctx, SPIN, { signal: controller.signal })
    await until(() => owned.stats().runningWorkers === 1)
    controller.abort()
    const result = await running
    await expectAborted(result, owned)
  })

  it('while a sub-call is pending', async () => {
    const { ctx, runtime: owned, entered } = await start()
    const controller = new AbortController()
    const running = runCode(ctx, 'await tools.hang({}); return 1', { signal: controller.signal })
    await entered.promise
    controller.abort()
    await expectAborted(await running, owned)
  })

  it('while a sub-call’s result is on its way back to the program', async () => {
    const { ctx, runtime: owned } = await start()
    const controller = new AbortController()
    ctx.on('tool/code-dispatch', () => controller.abort())
    const result = await runCode(ctx, 'await tools.quick({}); while (true) {}', { signal: controller.signal })
    await expectAborted(result, owned)
  })
})

describe('disposal ends a running run_code ABORTED and leaves no worker', () => {
  it.each([
    ['the code runtime plugin', 'runtimeFork'],
    ['the Code Mode plugin', 'codeModeFork'],
    ['the context', 'context'],
  ] as const)('disposing %s mid-run', async (_what, which) => {
    const started = await start()
    const { ctx, runtime: owned, entered } = started
    const running = runCode(ctx, 'console.log("started"); await tools.hang({}); while (true) {}')
    await entered.promise
    if (which === 'context') await ctx.fiber.dispose()
    else await started[which].dispose()
    const result = await running
    if (which === 'context') {
      // tools-core ends a disposed context's calls itself and says so (its caller is gone too).
      await expectAborted(
        result,
        owned,
        /^Error: tool call aborted: the context calling ctx\.tools was disposed$/,
      )
    } else {
      await expectAborted(result, owned)
      expect(textOf(result)).toContain('Captured output:\nstarted')
    }
  })

  it('disposing the code runtime while a program spins', async () => {
    const started = await start()
    const { ctx, runtime: owned } = started
    const running = runCode(ctx, SPIN)
    await until(() => owned.stats().runningWorkers === 1)
    await started.runtimeFork.dispose()
    await expectAborted(await running, owned)
  })
})

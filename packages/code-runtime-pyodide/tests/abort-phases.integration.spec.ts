// An aborted or disposed run_code ends ABORTED (tools-core's code for aborted calls), promptly,
// and leaves no worker running — at every phase of a Python run: waiting for a slot, while its
// interpreter boots, while the program runs, while a sub-call is pending, and while a sub-call's
// result is on its way back. Real Pyodide, the full Code Mode pipeline.
import { Context } from '@deepseek-ai/cordis'
import * as CodeMode from '@dsh/tools-codemode'
import { deferred, runCode, resultText as textOf } from '@dsh/tools-codemode/testing'
import ToolRuntime, { defineTool, type ToolExecutionResult } from '@dsh/tools-core'
import { afterEach, describe, expect, it } from 'vitest'
import { createPyodideRuntime, type PyodideRuntime, type PyodideRuntimeConfig } from '../src/index'

/** Poll `predicate` every 5 ms for up to 60 s (interpreters boot slowly on a loaded machine). */
async function until(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 12_000 && !predicate(); i++) await new Promise((resolve) => setTimeout(resolve, 5))
  if (!predicate()) throw new Error('condition never held')
}

let app: Context | undefined
let runtime: PyodideRuntime | undefined
afterEach(async () => {
  await app?.fiber.dispose()
  await runtime?.dispose()
  app = undefined
  runtime = undefined
})

async function start(config: PyodideRuntimeConfig = {}) {
  const ctx = new Context()
  app = ctx
  const owned = createPyodideRuntime({ warmWorkers: 0, ...config })
  runtime = owned
  await ctx.plugin(ToolRuntime, { mode: 'code' })
  const runtimeFork = await ctx.plugin({
    name: 'test-pyodide-runtime',
    apply: (child: Context) => {
      child.provide('codeRuntime', owned)
      child.effect(() => () => owned.dispose(), 'test-pyodide-runtime/dispose')
    },
  })
  const codeModeFork = await ctx.plugin(CodeMode)
  const entered = deferred()
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
  return { ctx, runtime: owned, runtimeFork, codeModeFork, entered }
}

/** The run ended ABORTED and no worker of it is left. */
async function expectAborted(
  result: ToolExecutionResult,
  owned: PyodideRuntime,
  message: RegExp = /^Error: code run aborted: /,
) {
  expect(result).toMatchObject({ isError: true, error: { info: { code: 'ABORTED' } } })
  expect(textOf(result)).toMatch(message)
  await owned.whenIdle()
  expect(owned.stats()).toMatchObject({ liveWorkers: 0, runningWorkers: 0, queuedRuns: 0 })
}

const SPIN = 'print("running")\nwhile True:\n    pass'

describe('aborting a Python run_code through its signal ends it ABORTED at every phase', () => {
  it('while it waits for a slot', async () => {
    const { ctx, runtime: owned } = await start({ maxConcurrentRuns: 1 })
    const busy = new AbortController()
    const first = runCode(ctx, SPIN, { signal: busy.signal })
    await until(() => owned.stats().runningWorkers === 1)
    const controller = new AbortController()
    const queued = runCode(ctx, 'return 1', { signal: controller.signal })
    await until(() => owned.stats().queuedRuns === 1)
    controller.abort()
    const queuedResult = await queued
    busy.abort()
    await expectAborted(queuedResult, owned)
    await expectAborted(await first, owned)
  })

  it('while its interpreter boots', async () => {
    const { ctx, runtime: owned } = await start()
    const controller = new AbortController()
    const running = runCode(ctx, 'return 1', { signal: controller.signal })
    await until(() => owned.stats().liveWorkers === 1)
    controller.abort()
    await expectAborted(await running, owned)
  })

  it('while the program runs', async () => {
    const { ctx, runtime: owned } = await start()
    const controller = new AbortController()
    const running = runCode(ctx, SPIN, { signal: controller.signal })
    await until(() => owned.stats().runningWorkers === 1)
    controller.abort()
    await expectAborted(await running, owned)
  })

  it('while a sub-call is pending', async () => {
    const { ctx, runtime: owned, entered } = await start()
    const controller = new AbortController()
    const running = runCode(ctx, 'await tools.hang({})\nreturn 1', { signal: controller.signal })
    await entered.promise
    controller.abort()
    await expectAborted(await running, owned)
  })

  it('while a sub-call’s result is on its way back to the program', async () => {
    const { ctx, runtime: owned } = await start()
    const controller = new AbortController()
    ctx.on('tool/code-dispatch', () => controller.abort())
    const result = await runCode(ctx, 'await tools.quick({})\nwhile True:\n    pass', {
      signal: controller.signal,
    })
    await expectAborted(result, owned)
  })
})

describe('disposal ends a running Python run_code ABORTED and leaves no worker', () => {
  it.each([
    ['the code runtime plugin', 'runtimeFork'],
    ['the Code Mode plugin', 'codeModeFork'],
    ['the context', 'context'],
  ] as const)('disposing %s mid-run', async (_what, which) => {
    const started = await start()
    const { ctx, runtime: owned, entered } = started
    const running = runCode(ctx, 'print("started")\nawait tools.hang({})\nwhile True:\n    pass')
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
})

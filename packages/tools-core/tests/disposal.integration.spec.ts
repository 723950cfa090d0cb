/**
 * Disposal ends work (issue 21, symptom 6): disposing the context, the plugin that registered a
 * tool, or an agent scope ends every call in flight `ABORTED`, at every phase, with real child
 * processes (`sleep 30`) behind the bodies. Bodies that honour their signal kill their child
 * before the caller sees `ABORTED`; bodies that ignore it are left behind after `disposeGraceMs`,
 * and nothing of their call runs after that.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { Context } from '@deepseek-ai/cordis'
import { afterEach, describe, expect, it } from 'vitest'
import ToolRuntime, {
  createScope,
  defineTool,
  RuntimeDisposedError,
  type ToolExecutionResult,
  type ToolRuntimeConfig,
} from '../src/index'
import { call } from './fixtures/runtime'

/** Whether a process with this pid exists (a reaped zombie counts as gone). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'))
  } catch {
    return true
  }
}

const children: ChildProcess[] = []
const contexts: Context[] = []
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL')
  for (const ctx of contexts.splice(0)) await ctx.fiber.dispose()
})

/** Counters of one test app: what ran, and when relative to each other. */
interface Log {
  starts: number
  /** Bodies whose child has exited (so the body settled). */
  exited: number
  pids: number[]
  events: string[]
}

/**
 * The plugin under test: `sleeper({ seconds })` runs `sleep <seconds>` honouring its signal (the
 * child is killed on abort and the body settles once it has exited); `stubborn` runs `sleep 30`
 * and ignores its signal entirely.
 */
function toolsPlugin(log: Log) {
  return {
    name: 'sleepers',
    inject: ['tools'],
    apply(ctx: Context) {
      ctx.tools.register(
        defineTool({
          name: 'sleeper',
          description: 'Sleep, honouring the signal.',
          parameters: { seconds: { type: 'string' } },
          isConcurrencySafe: () => true,
          output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
          execute: (args, exec) =>
            new Promise<string>((resolve, reject) => {
              log.starts++
              const child = spawn('sleep', [args.seconds ?? '30'], { signal: exec.signal, stdio: 'ignore' })
              children.push(child)
              log.pids.push(child.pid!)
              child.on('error', () => {})
              child.on('exit', (code) => {
                log.exited++
                log.events.push('child-exit')
                if (code === 0) resolve('slept')
                else reject(new DOMException('aborted', 'AbortError'))
              })
            }),
        }),
      )
      ctx.tools.register(
        defineTool({
          name: 'stubborn',
          description: 'Sleep, ignoring the signal.',
          parameters: {},
          output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
          execute: () =>
            new Promise<string>((resolve) => {
              log.starts++
              const child = spawn('sleep', ['30'], { stdio: 'ignore' })
              children.push(child)
              log.pids.push(child.pid!)
              child.on('exit', () => {
                log.exited++
                resolve('done at last')
              })
            }),
        }),
      )
    },
  }
}

type Target = 'context' | 'plugin' | 'scope' | 'scope key'

/** A runtime, the tools plugin and an agent scope; `end()` disposes the target; `run` calls as the target's caller. */
async function app(target: Target, config: ToolRuntimeConfig = {}) {
  const ctx = new Context()
  contexts.push(ctx)
  await ctx.plugin(ToolRuntime, config)
  const log: Log = { starts: 0, exited: 0, pids: [], events: [] }
  const plugin = ctx.plugin(toolsPlugin(log))
  await plugin
  const scope = createScope(ctx, 'agent')
  const end = (): Promise<void> =>
    target === 'context' ? ctx.fiber.dispose() : target === 'plugin' ? plugin.dispose() : scope.dispose()
  const caller = target === 'scope' ? scope.ctx : ctx
  const tools = caller.tools
  const run = (name: string, args: Record<string, unknown> = {}) =>
    tools.execute(call(name, args, target === 'scope key' ? { agent: 'agent' } : {}))
  const batch = (inputs: [string, Record<string, unknown>][]) =>
    tools.executeBatch(
      inputs.map(([name, args]) => call(name, args, target === 'scope key' ? { agent: 'agent' } : {})),
    )
  return { ctx, log, end, run, batch, tools }
}

/** A valid definition to register after a disposal. */
const late = defineTool({
  name: 'late',
  description: 'Registered too late.',
  parameters: {},
  output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
  execute: () => 'late',
})

function expectDisposedAbort(result: ToolExecutionResult | undefined): void {
  expect(result?.isError && result.error.info?.code).toBe('ABORTED')
  expect(result?.isError && result.error.message).toMatch(/was disposed/)
}

const waitFor = async (predicate: () => boolean) => {
  for (let i = 0; i < 2000 && !predicate(); i++) await new Promise((resolve) => setTimeout(resolve, 5))
  expect(predicate()).toBe(true)
}

const TARGETS: Target[] = ['context', 'plugin', 'scope', 'scope key']

describe('disposal ends every call in flight ABORTED', () => {
  for (const target of TARGETS) {
    describe(`disposing the ${target}`, () => {
      it('mid-body: the body signal aborts at once, the child is gone before the caller sees ABORTED', async () => {
        const { log, end, run } = await app(target, { disposeGraceMs: 20_000 })
        const pending = run('sleeper')
        await waitFor(() => log.pids.length === 1)
        const seenAt: number[] = []
        pending.then(() => seenAt.push(log.exited))
        await end()
        const result = await pending
        expectDisposedAbort(result)
        // The honouring body settled (its child exited) before the caller got the result.
        expect(seenAt).toEqual([1])
        expect(isAlive(log.pids[0]!)).toBe(false)
      })

      it('in a guard: ABORTED, and a body the synchronous dispatch started is stopped with its child', async () => {
        const { ctx, log, end, run } = await app(target, { disposeGraceMs: 20_000 })
        ctx.tools.guard(() => {
          // cordis runs disposers asynchronously: the guard's own call may reach its body first.
          void end()
          return undefined
        })
        expectDisposedAbort(await run('sleeper'))
        expect(log.starts).toBeLessThanOrEqual(1)
        expect(log.exited).toBe(log.starts)
        for (const pid of log.pids) expect(isAlive(pid)).toBe(false)
      })

      it('in a pre-execute listener and an around-dispatch wrapper: next() runs no body', async () => {
        for (const phase of ['tools/pre-execute', 'tools/execute'] as const) {
          const { ctx, log, end, run } = await app(target)
          ctx.on(phase, async (_exec: unknown, next: () => Promise<never>) => {
            await end()
            return next()
          })
          expectDisposedAbort(await run('sleeper'))
          expect(log.starts).toBe(0)
        }
      })

      it('in a post-execute listener: later listeners do not run', async () => {
        const { ctx, log, end, run } = await app(target)
        const ran: string[] = []
        ctx.on('tools/post-execute', async (_exec, _result, next) => {
          ran.push('first')
          await end()
          return next()
        })
        ctx.on('tools/post-execute', async (_exec, _result, next) => {
          ran.push('second')
          return next()
        })
        expectDisposedAbort(await run('sleeper', { seconds: '0' }))
        expect(log.starts).toBe(1)
        expect(ran).toEqual(['first'])
      })

      it('a body that ignores its signal: ABORTED at the grace bound, nothing of the call runs after', async () => {
        const { ctx, log, end, run } = await app(target, { disposeGraceMs: 50 })
        let posts = 0
        const stages: string[] = []
        ctx.on('tools/post-execute', async (_exec, _result, next) => {
          posts++
          return next()
        })
        ctx.on('tools/stage', (_exec, event) => {
          stages.push(event.stage)
        })
        const pending = run('stubborn')
        await waitFor(() => log.pids.length === 1)
        await end()
        expectDisposedAbort(await pending)
        expect(log.exited).toBe(0)
        // The abandoned body finishes later: its call stays over.
        const seen = stages.length
        children[0]!.kill('SIGKILL')
        await waitFor(() => log.exited === 1)
        await new Promise((resolve) => setTimeout(resolve, 20))
        expect(posts).toBe(0)
        expect(stages.length).toBe(seen)
      })

      it('a wrapper that never settles: ABORTED at the grace bound', async () => {
        const { ctx, log, end, run } = await app(target, { disposeGraceMs: 50 })
        ctx.on('tools/execute', async () => {
          void end()
          return new Promise<never>(() => {})
        })
        expectDisposedAbort(await run('sleeper'))
        expect(log.starts).toBe(0)
      })

      it('executeBatch: running and queued calls all end ABORTED, every child gone', async () => {
        const { log, end, batch } = await app(target, { disposeGraceMs: 20_000 })
        const pending = batch([
          ['sleeper', {}],
          ['sleeper', {}],
          ['stubborn', {}],
          ['sleeper', {}],
        ])
        await waitFor(() => log.pids.length === 2)
        await end()
        // The stubborn call is exclusive and was never reached: nothing started after the disposal.
        const results = await pending
        expect(results).toHaveLength(4)
        for (const result of results) expectDisposedAbort(result)
        expect(log.starts).toBe(2)
        for (const pid of log.pids) expect(isAlive(pid)).toBe(false)
      })
    })
  }

  it('executeBatch with a body that ignores its signal settles at the grace bound', async () => {
    const { log, end, batch } = await app('scope', { disposeGraceMs: 50 })
    const pending = batch([
      ['stubborn', {}],
      ['sleeper', {}],
    ])
    await waitFor(() => log.pids.length === 1)
    await end()
    const results = await pending
    for (const result of results) expectDisposedAbort(result)
    expect(log.starts).toBe(1)
  })

  it('a plugin disposal ends only the calls of its tools, not other calls of the same runtime', async () => {
    const ctx = new Context()
    contexts.push(ctx)
    await ctx.plugin(ToolRuntime)
    const log: Log = { starts: 0, exited: 0, pids: [], events: [] }
    await ctx.plugin(toolsPlugin(log))
    const other = ctx.plugin({
      name: 'other',
      inject: ['tools'],
      apply(inner: Context) {
        inner.tools.register(
          defineTool({
            name: 'quick',
            description: 'Quick.',
            parameters: {},
            output: { schema: { type: 'string' }, render: (_a, v) => [{ type: 'text', text: v }] },
            execute: () => new Promise<string>((resolve) => setTimeout(() => resolve('ok'), 50)),
          }),
        )
      },
    })
    await other
    const sleeping = ctx.tools.execute(call('sleeper', { seconds: '0.3' }))
    const quick = ctx.tools.execute(call('quick'))
    await other.dispose()
    expectDisposedAbort(await quick)
    const slept = await sleeping
    expect(slept.isError === false && slept.value).toBe('slept')
  })
})

describe('disposeGraceMs config', () => {
  it('takes a positive finite number of milliseconds; anything else fails naming the key', async () => {
    const validate = ToolRuntime.Config['~standard'].validate
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '100', null]) {
      const checked = validate({ disposeGraceMs: bad }) as { issues?: { path?: unknown; message: string }[] }
      expect(checked.issues?.[0]?.path, String(bad)).toEqual(['disposeGraceMs'])
      expect(checked.issues?.[0]?.message).toMatch(/^\$\.disposeGraceMs: expected number/)
    }
    expect((validate({ disposeGraceMs: 250 }) as { issues?: unknown }).issues).toBeUndefined()
  })
})

describe('using the runtime after dispose fails clearly', () => {
  it('a held ctx.tools of a disposed runtime: execute is ABORTED, registration and reads throw RUNTIME_DISPOSED', async () => {
    const { ctx, tools } = await app('context')
    await ctx.fiber.dispose()
    const result = await tools.execute(call('sleeper'))
    expect(result.isError && result.error.message).toBe('tool call aborted: the tool runtime was disposed')
    const batch = await tools.executeBatch([call('sleeper'), call('stubborn')])
    for (const entry of batch) expect(entry.isError && entry.error.info?.code).toBe('ABORTED')
    for (const use of [
      () => tools.register(late),
      () => tools.guard(() => undefined),
      () => tools.schemas(),
      () => tools.get('sleeper'),
      () => tools.assemble(),
    ]) {
      expect(use).toThrow(RuntimeDisposedError)
      expect(use).toThrow(/the tool runtime was disposed/)
    }
  })

  it('a held ctx.tools of a disposed agent scope names the scope; the runtime itself goes on', async () => {
    const { ctx } = await app('scope')
    const scope = createScope(ctx, 'gone')
    const tools = scope.ctx.tools
    await scope.dispose()
    const result = await tools.execute(call('sleeper', { seconds: '0' }))
    expect(result.isError && result.error.message).toBe('tool call aborted: agent scope `gone` was disposed')
    expect(() => tools.register(late)).toThrow(/agent scope `gone` was disposed/)
    expect(() => tools.restrict({ deny: ['sleeper'] })).toThrow(RuntimeDisposedError)
    const alive = await ctx.tools.execute(call('sleeper', { seconds: '0' }))
    expect(alive.isError).toBe(false)
  })
})

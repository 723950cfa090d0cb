// Bridge behaviour through ctx.tools.execute, with the in-process TEST DOUBLE runtime
// (tests/fixtures/in-process-runtime.ts). The same rules run against real workers in
// @dsh/code-runtime-worker-thread's tests/code-mode-e2e.integration.spec.ts.
import { Context } from '@deepseek-ai/cordis'
import ToolRuntime, { createScope, defineTool, type PostToolDecision } from '@dsh/tools-core'
import { afterEach, describe, expect, it } from 'vitest'
import type { CodeRunRequest } from '../src/code-runtime'
import type { CodeDispatchResult, CodeDispatchStart } from '../src/events'
import * as CodeMode from '../src/plugin'
import { addTool, createApp, deferred, echoTool, runCode, textOf, until } from './fixtures/app'
import { createInProcessRuntime } from './fixtures/in-process-runtime'

let app: Context | undefined
afterEach(async () => {
  await app?.fiber.dispose()
  app = undefined
})

async function start(
  options: { maxParallelSubCalls?: number; onRequest?: (request: CodeRunRequest) => void } = {},
) {
  app = await createApp({
    runtime: createInProcessRuntime(options.onRequest ? { onRequest: options.onRequest } : {}),
    ...(options.maxParallelSubCalls === undefined
      ? {}
      : { maxParallelSubCalls: options.maxParallelSubCalls }),
  })
  app.tools.register(addTool)
  app.tools.register(echoTool)
  return app
}

/** A gated tool: each call waits until the test opens its gate; counts overlap. */
function gatedTool(name: string, safe: boolean) {
  const state = { active: 0, maxActive: 0, started: [] as number[], gates: new Map<number, () => void>() }
  const tool = defineTool({
    name,
    description: `Gated ${safe ? 'safe' : 'exclusive'} tool.`,
    parameters: { id: { type: 'integer', required: true } },
    output: {
      schema: { type: 'integer' },
      render: (_args, value) => [{ type: 'text', text: String(value) }],
    },
    isConcurrencySafe: () => safe,
    async execute(args, exec) {
      state.active++
      state.maxActive = Math.max(state.maxActive, state.active)
      state.started.push(args.id)
      const gate = deferred()
      state.gates.set(args.id, gate.resolve)
      const onAbort = () => gate.resolve()
      exec.signal.addEventListener('abort', onAbort, { once: true })
      await gate.promise
      exec.signal.removeEventListener('abort', onAbort)
      state.active--
      return args.id
    },
  })
  return { tool, state }
}

describe('dispatch bridge', () => {
  it('runs sequential sub-calls through the pipeline and returns the final value', async () => {
    const ctx = await start()
    const result = await runCode(
      ctx,
      'const a = await tools.add({ a: 1, b: 2 }); return await tools.add({ a, b: 10 })',
    )
    expect(result).toMatchObject({ isError: false, value: { logs: [], result: 13 } })
    expect(textOf(result)).toBe('13')
  })

  it('hands the runtime the visible tools minus run_code, sorted, per scope', async () => {
    const requests: CodeRunRequest[] = []
    const ctx = await start({ onRequest: (request) => requests.push(request) })
    const scope = createScope(ctx, 'agent-a')
    scope.ctx.tools.restrict({ deny: ['add'] })
    await runCode(ctx, 'return 1')
    await runCode(ctx, 'return 1', { agent: 'agent-a' })
    expect(requests.map((request) => request.toolNames)).toEqual([['add', 'echo'], ['echo']])
    const hidden = await runCode(
      ctx,
      'try { await tools.add({ a: 1, b: 1 }) } catch (e) { return e.message }',
      {
        agent: 'agent-a',
      },
    )
    expect(hidden.isError ? undefined : hidden.value).toMatchObject({
      result: expect.stringMatching(/unknown tool/),
    })
  })

  it('overlaps concurrency-safe calls up to maxParallelSubCalls, in submission order', async () => {
    const ctx = await start({ maxParallelSubCalls: 3 })
    const { tool, state } = gatedTool('slow', true)
    ctx.tools.register(tool)
    const running = runCode(
      ctx,
      'return await Promise.all([1, 2, 3, 4, 5, 6, 7].map((id) => tools.slow({ id })))',
    )
    await until(() => state.started.length === 3)
    expect(state.started).toEqual([1, 2, 3])
    for (let id = 1; id <= 7; id++) {
      await until(() => state.gates.has(id))
      state.gates.get(id)!()
    }
    const result = await running
    expect(result).toMatchObject({ isError: false, value: { result: [1, 2, 3, 4, 5, 6, 7] } })
    expect(state.maxActive).toBe(3)
    expect(state.started).toEqual([1, 2, 3, 4, 5, 6, 7])
  })

  it('maxParallelSubCalls 1 dispatches serially', async () => {
    const ctx = await start({ maxParallelSubCalls: 1 })
    const { tool, state } = gatedTool('slow', true)
    ctx.tools.register(tool)
    const running = runCode(ctx, 'return await Promise.all([1, 2, 3].map((id) => tools.slow({ id })))')
    for (let id = 1; id <= 3; id++) {
      await until(() => state.gates.has(id))
      expect(state.active).toBe(1)
      state.gates.get(id)!()
    }
    await running
    expect(state.maxActive).toBe(1)
  })

  it('an exclusive call drains the pool, runs alone and bars later calls', async () => {
    const ctx = await start()
    const safe = gatedTool('safe', true)
    const exclusive = gatedTool('mutate', false)
    ctx.tools.register(safe.tool)
    ctx.tools.register(exclusive.tool)
    const log: string[] = []
    ctx.on('tool/code-dispatch-start', (event) => log.push(`start ${event.name}`))
    ctx.on('tool/code-dispatch', (event) => log.push(`end ${event.name}`))
    const running = runCode(
      ctx,
      'return await Promise.all([tools.safe({ id: 1 }), tools.safe({ id: 2 }), tools.mutate({ id: 3 }), tools.safe({ id: 4 })])',
    )
    await until(() => safe.state.started.length === 2)
    safe.state.gates.get(1)!()
    await until(() => log.length === 3)
    expect(exclusive.state.started).toEqual([])
    safe.state.gates.get(2)!()
    await until(() => exclusive.state.started.length === 1)
    expect(safe.state.active).toBe(0)
    expect(safe.state.started).toEqual([1, 2])
    exclusive.state.gates.get(3)!()
    await until(() => safe.state.gates.has(4))
    safe.state.gates.get(4)!()
    await running
    expect(log).toEqual([
      'start safe',
      'start safe',
      'end safe',
      'end safe',
      'start mutate',
      'end mutate',
      'start safe',
      'end safe',
    ])
  })

  it('a denied sub-call rejects with ToolCallError(toolName, message) the program can catch', async () => {
    const ctx = await start()
    ctx.tools.guard((execution) => (execution.name === 'add' ? 'adding is not allowed here' : undefined))
    const result = await runCode(
      ctx,
      `try { await tools.add({ a: 1, b: 2 }) } catch (e) {
        console.log(e instanceof ToolCallError, e.name, e.toolName, JSON.stringify(Object.keys(e)))
        return e.message
      }`,
    )
    expect(result.isError).toBe(false)
    const value = (result as unknown as { value: { logs: string[]; result: string } }).value
    expect(value.logs).toEqual(['true ToolCallError add ["toolName"]'])
    expect(value.result).toMatch(/adding is not allowed here/)
  })

  it('rejects a lossy argument for that call only', async () => {
    const ctx = await start()
    const result = await runCode(
      ctx,
      `const out = []
      try { await tools.echo({ text: 'x', n: Number.NaN }) } catch (e) { out.push(e.toolName + ': ' + e.message) }
      out.push(await tools.echo({ text: 'still fine' }))
      return out`,
    )
    expect(result).toMatchObject({
      isError: false,
      value: { result: [expect.stringMatching(/^echo: arguments are not lossless JSON/), 'still fine'] },
    })
  })

  it('numbers dispatch ids <callId>:code:<n> by submission and reports content and timing', async () => {
    const ctx = await start()
    const starts: CodeDispatchStart[] = []
    const ends: CodeDispatchResult[] = []
    ctx.on('tool/code-dispatch-start', (event) => starts.push(event))
    ctx.on('tool/code-dispatch', (event) => ends.push(event))
    ctx.tools.guard((execution) => (execution.name === 'add' ? 'no' : undefined))
    await runCode(
      ctx,
      `await tools.echo({ text: 'a' }); try { await tools.add({ a: 1, b: 1 }) } catch {} ; await tools.echo({ text: 'b' })`,
      { callId: 'outer' },
    )
    expect(starts.map((event) => [event.id, event.name, event.parent])).toEqual([
      ['outer:code:1', 'echo', 'outer'],
      ['outer:code:2', 'add', 'outer'],
      ['outer:code:3', 'echo', 'outer'],
    ])
    expect(starts[0]!.arguments).toEqual({ text: 'a' })
    expect(ends.map((event) => [event.id, event.isError, event.content])).toEqual([
      ['outer:code:1', false, [{ type: 'text', text: 'a' }]],
      ['outer:code:2', true, [{ type: 'text', text: expect.stringMatching(/^Error: .*no/) }]],
      ['outer:code:3', false, [{ type: 'text', text: 'b' }]],
    ])
    for (const event of ends) expect(event.endTime).toBeGreaterThanOrEqual(event.startTime)
  })

  it('scoped dispatch listeners see only their agent’s sub-calls', async () => {
    const ctx = await start()
    const scope = createScope(ctx, 'agent-b')
    const seen: string[] = []
    scope.ctx.on('tool/code-dispatch-start', (event) => seen.push(event.id))
    await runCode(ctx, `await tools.echo({ text: 'global' })`, { callId: 'g' })
    await runCode(ctx, `await tools.echo({ text: 'scoped' })`, { callId: 's', agent: 'agent-b' })
    expect(seen).toEqual(['s:code:1'])
  })

  it('defers sub-call contexts through the parent in dispatch order', async () => {
    const ctx = await start()
    const gates = [deferred(), deferred()]
    ctx.tools.register(
      defineTool({
        name: 'note',
        description: 'Defers a context.',
        parameters: { id: { type: 'integer', required: true } },
        output: { schema: { type: 'integer' }, render: () => [{ type: 'text', text: 'ok' }] },
        isConcurrencySafe: () => true,
        async execute(args, exec) {
          await gates[args.id]!.promise
          exec.deferContext({ source: 'note', text: `context ${args.id}` })
          return args.id
        },
      }),
    )
    const ends: string[] = []
    ctx.on('tool/code-dispatch', (event) => ends.push(event.id))
    const running = runCode(ctx, 'await Promise.all([tools.note({ id: 0 }), tools.note({ id: 1 })])', {
      callId: 'n',
    })
    gates[1]!.resolve()
    await until(() => ends.length === 1)
    expect(ends).toEqual(['n:code:2'])
    gates[0]!.resolve()
    const result = await running
    expect(result.additionalContexts?.map((context) => context.text)).toEqual(['context 0', 'context 1'])
  })

  it('settlement aborts a still-running sub-call and waits for it before returning', async () => {
    const ctx = await start({ maxParallelSubCalls: 1 })
    const { tool, state } = gatedTool('slow', true)
    ctx.tools.register(tool)
    const starts: string[] = []
    const ends: string[] = []
    ctx.on('tool/code-dispatch-start', (event) => starts.push(event.id))
    ctx.on('tool/code-dispatch', (event) => ends.push(event.id))
    const result = await runCode(
      ctx,
      `tools.slow({ id: 1 }); tools.slow({ id: 2 }); tools.slow({ id: 3 }); return 'done'`,
      {
        callId: 'r',
      },
    )
    expect(result).toMatchObject({ isError: false, value: { result: 'done' } })
    expect(state.started).toEqual([1])
    expect(state.active).toBe(0)
    expect(starts).toEqual(['r:code:1'])
    expect(ends).toEqual(['r:code:1'])
  })

  it('aborting the outer call mid-run aborts the running sub-tool and ends the run ABORTED', async () => {
    const ctx = await start()
    let sawAbort = false
    let settled = false
    ctx.tools.register(
      defineTool({
        name: 'wait',
        description: 'Waits for its signal.',
        parameters: { note: { type: 'string' } },
        output: { schema: { type: 'integer' }, render: () => [{ type: 'text', text: 'ok' }] },
        async execute(_args, exec) {
          const aborted = deferred()
          exec.signal.addEventListener('abort', () => aborted.resolve(), { once: true })
          await aborted.promise
          sawAbort = true
          await new Promise<void>((resolve) => setTimeout(resolve, 5))
          settled = true
          return 0 as number
        },
      }),
    )
    const controller = new AbortController()
    const starts: string[] = []
    ctx.on('tool/code-dispatch-start', (event) => starts.push(event.id))
    const running = runCode(ctx, 'await tools.wait({}); return "unreachable"', { signal: controller.signal })
    await until(() => starts.length === 1)
    controller.abort()
    const result = await running
    expect(sawAbort).toBe(true)
    expect(settled).toBe(true)
    expect(result).toMatchObject({ isError: true, error: { info: { code: 'ABORTED' } } })
    expect(textOf(result)).toBe('Error: code run aborted: the run was aborted')
  })

  it('disposing the Code Mode plugin mid-run ends the run ABORTED once the program stopped', async () => {
    const ctx = new Context()
    app = ctx
    await ctx.plugin(ToolRuntime, { mode: 'code' })
    await ctx.plugin({
      name: 'runtime',
      apply: (child: Context) => child.provide('codeRuntime', createInProcessRuntime()),
    })
    const fork = await ctx.plugin(CodeMode)
    const starts: string[] = []
    ctx.on('tool/code-dispatch-start', (event) => starts.push(event.id))
    ctx.tools.register(
      defineTool({
        name: 'hang',
        description: 'Never settles on its own.',
        parameters: {},
        output: { schema: { type: 'integer' }, render: () => [{ type: 'text', text: 'ok' }] },
        execute: (_args, exec) =>
          new Promise<number>((resolve) => exec.signal.addEventListener('abort', () => resolve(0))),
      }),
    )
    const running = runCode(ctx, 'console.log("started"); await tools.hang({}); return 1')
    await until(() => starts.length === 1)
    await fork.dispose()
    const result = await running
    expect(result).toMatchObject({ isError: true, error: { info: { code: 'ABORTED' } } })
    expect(textOf(result)).toBe('Error: code run aborted: the run was aborted\nCaptured output:\nstarted')
  })

  it('a call to an unknown binding rejects with ToolCallError', async () => {
    const ctx = await start()
    const result = await runCode(
      ctx,
      `try { await tools.nope({}) } catch (e) { return [e.toolName, e.message] }`,
    )
    expect(result).toMatchObject({ value: { result: ['nope', expect.stringMatching(/unknown tool/)] } })
  })

  it('resolves each binding to the final value after post-execute policy', async () => {
    const ctx = await start()
    const replace: PostToolDecision = { kind: 'accept', value: 42 }
    ctx.on('tools/post-execute', (execution, _result, next) =>
      execution.name === 'add' ? Promise.resolve(replace) : next(),
    )
    const result = await runCode(ctx, 'return await tools.add({ a: 1, b: 1 })')
    expect(result).toMatchObject({ value: { result: 42 } })
  })

  it('passes the outer execution token as parent, and the calling agent, to every sub-call', async () => {
    const ctx = await start()
    const seen: { name: string; token: symbol; parent: symbol | undefined; agent: string | undefined }[] = []
    ctx.on('tools/pre-execute', (execution, next) => {
      seen.push({
        name: execution.name,
        token: execution.token,
        parent: execution.parent,
        agent: execution.agent,
      })
      return next()
    })
    createScope(ctx, 'agent-p')
    await runCode(ctx, 'await tools.echo({ text: "a" }); await tools.add({ a: 1, b: 1 })', {
      agent: 'agent-p',
    })
    expect(seen.map((entry) => entry.name)).toEqual(['run_code', 'echo', 'add'])
    const [outer, ...subs] = seen
    expect(outer!.parent).toBeUndefined()
    for (const sub of subs) {
      expect(sub.parent).toBe(outer!.token)
      expect(sub.agent).toBe('agent-p')
    }
  })

  it('emits tool/code-dispatch-start at pipeline entry, before any policy of the sub-call', async () => {
    const ctx = await start()
    const log: string[] = []
    ctx.on('tool/code-dispatch-start', (event) => log.push(`dispatch-start ${event.id}`))
    ctx.on('tools/pre-execute', (execution, next) => {
      log.push(`pre-execute ${execution.callId}`)
      return next()
    })
    ctx.on('tool/code-dispatch', (event) => log.push(`dispatch ${event.id}`))
    await runCode(ctx, 'await tools.echo({ text: "a" })', { callId: 'e' })
    expect(log).toEqual([
      'pre-execute e',
      'dispatch-start e:code:1',
      'pre-execute e:code:1',
      'dispatch e:code:1',
    ])
  })

  it('tool/code-dispatch carries the final model-facing content (a post-execute value replacement re-renders it; finalizeContent does not override it)', async () => {
    const ctx = await start()
    ctx.tools.register(
      defineTool({
        name: 'final',
        description: 'Content finalized by the definition.',
        parameters: {},
        output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
        execute: () => 'raw',
        finalizeContent: (_exec, result) => [
          {
            type: 'text',
            text: `finalized(${result.content.map((part) => (part.type === 'text' ? part.text : '')).join('')})`,
          },
        ],
      }),
    )
    ctx.on('tools/post-execute', (execution, _result, next) =>
      execution.name === 'final'
        ? Promise.resolve<PostToolDecision>({ kind: 'accept', value: 'replaced' })
        : next(),
    )
    const ends: CodeDispatchResult[] = []
    ctx.on('tool/code-dispatch', (event) => ends.push(event))
    const result = await runCode(ctx, 'return await tools.final({})')
    expect(result).toMatchObject({ isError: false, value: { result: 'replaced' } })
    // tools-core's finalize rule: a result replaced after the body is not finalized (issue 21).
    expect(ends.map((event) => [event.isError, event.content])).toEqual([
      [false, [{ type: 'text', text: 'replaced' }]],
    ])
  })

  it('keeps sub-call contexts, in dispatch order, when the program later fails', async () => {
    const ctx = await start()
    ctx.tools.register(
      defineTool({
        name: 'note',
        description: 'Defers a context.',
        parameters: { id: { type: 'integer', required: true } },
        output: { schema: { type: 'integer' }, render: () => [{ type: 'text', text: 'ok' }] },
        execute(args, exec) {
          exec.deferContext({ source: 'note', text: `context ${args.id}` })
          return args.id
        },
      }),
    )
    const result = await runCode(
      ctx,
      'await tools.note({ id: 1 }); await tools.note({ id: 2 }); throw new Error("later failure")',
    )
    expect(result).toMatchObject({ isError: true, error: { info: { code: 'CODE_RUN_FAILED' } } })
    expect(result.additionalContexts?.map((context) => [context.source, context.text])).toEqual([
      ['note', 'context 1'],
      ['note', 'context 2'],
    ])
  })

  it('a program cannot call run_code itself: the binding is refused and nothing is dispatched', async () => {
    const requests: CodeRunRequest[] = []
    const ctx = await start({ onRequest: (request) => requests.push(request) })
    let runs = 0
    ctx.on('tools/pre-execute', (execution, next) => {
      if (execution.name === 'run_code') runs++
      return next()
    })
    const starts: string[] = []
    ctx.on('tool/code-dispatch-start', (event) => starts.push(event.id))
    const result = await runCode(
      ctx,
      `try { await tools.run_code({ code: 'return 1', description: 'nested' }) } catch (e) { return [e.name, e.toolName, e.message] }`,
    )
    expect(requests[0]!.toolNames).not.toContain('run_code')
    expect(result).toMatchObject({
      isError: false,
      value: { result: ['ToolCallError', 'run_code', expect.stringMatching(/unknown tool/)] },
    })
    expect(runs).toBe(1)
    expect(starts).toEqual([])
  })

  it('a scope-local tool shadows the global binding of the same name inside that agent’s programs', async () => {
    const ctx = await start()
    const scope = createScope(ctx, 'agent-s')
    scope.ctx.tools.register(
      defineTool({
        name: 'echo',
        description: 'Scoped echo.',
        parameters: { text: { type: 'string', required: true } },
        output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
        execute: (args) => `scoped:${args.text}`,
      }),
    )
    expect(await runCode(ctx, 'return await tools.echo({ text: "x" })')).toMatchObject({
      value: { result: 'x' },
    })
    expect(await runCode(ctx, 'return await tools.echo({ text: "x" })', { agent: 'agent-s' })).toMatchObject({
      value: { result: 'scoped:x' },
    })
  })

  it('a failed sub-call exposes only toolName and message (no code, info or content)', async () => {
    const ctx = await start()
    const result = await runCode(
      ctx,
      `try { await tools.add({ a: 'not a number', b: 1 }) } catch (e) {
        return { own: Object.getOwnPropertyNames(e).sort(), name: e.name, toolName: e.toolName, code: e.code ?? null, info: e.info ?? null, content: e.content ?? null }
      }`,
    )
    expect(result).toMatchObject({
      isError: false,
      value: {
        result: {
          own: ['message', 'stack', 'toolName'],
          name: 'ToolCallError',
          toolName: 'add',
          code: null,
          info: null,
          content: null,
        },
      },
    })
  })

  it.each([
    [
      'the program fails',
      'tools.slow({ id: 1 }); tools.slow({ id: 2 }); await new Promise((r) => setImmediate(r)); throw new Error("boom")',
    ],
    [
      'the runtime itself throws',
      'tools.slow({ id: 1 }); tools.slow({ id: 2 }); await new Promise((r) => setImmediate(r)); throw "RUNTIME"',
    ],
  ])(
    'when %s, running sub-calls are aborted and drained before the result is published',
    async (_case, code) => {
      app = await createApp({
        maxParallelSubCalls: 1,
        runtime: {
          language: 'typescript',
          async run(request, host) {
            const outcome = await createInProcessRuntime().run(request, host)
            if (!outcome.ok && outcome.message.includes('RUNTIME')) throw new Error('runtime crashed')
            return outcome
          },
        },
      })
      const ctx = app
      const { tool, state } = gatedTool('slow', true)
      ctx.tools.register(tool)
      const log: string[] = []
      ctx.on('tool/code-dispatch-start', (event) => log.push(`start ${event.id}`))
      ctx.on('tool/code-dispatch', (event) => log.push(`end ${event.id}`))
      ctx.on('tools/result', (execution) => {
        if (execution.name === 'run_code') log.push(`result run_code (active sub-calls: ${state.active})`)
      })
      const result = await runCode(ctx, code, { callId: 'f' })
      expect(result).toMatchObject({ isError: true, error: { info: { code: 'CODE_RUN_FAILED' } } })
      expect(state.started).toEqual([1])
      expect(log).toEqual(['start f:code:1', 'end f:code:1', 'result run_code (active sub-calls: 0)'])
    },
  )
})

describe('a sub-call whose tool ignores the abort', () => {
  it('holds run_code open at most subCallDrainMs after the program finished; a late settlement breaks nothing', async () => {
    let started = 0
    let aborted = 0
    const late = deferred()
    app = await createApp({ runtime: createInProcessRuntime(), config: { subCallDrainMs: 20 } })
    app.tools.register(
      defineTool({
        name: 'stuck',
        description: 'Settles only when the test says so, whatever the signal.',
        parameters: {},
        output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
        isConcurrencySafe: () => true,
        async execute(_args, exec) {
          started++
          exec.signal.addEventListener('abort', () => aborted++, { once: true })
          await late.promise
          return 'late'
        },
      }),
    )
    const result = await runCode(app, `tools.stuck({}); tools.stuck({}); return 'early'`)
    expect(result).toMatchObject({ isError: false })
    expect(textOf(result)).toBe('early')
    expect({ started, aborted }).toEqual({ started: 2, aborted: 2 })
    // The calls settle after run_code returned: nothing breaks, the next run works.
    late.resolve()
    await new Promise((resolve) => setImmediate(resolve))
    expect(textOf(await runCode(app, 'return 1'))).toBe('1')
  })
})

import { Context } from '@deepseek-ai/cordis'
import ToolRuntime, { createScope, createScopedEmitter } from '@dsh/tools-core'
import { context, type Span, type Tracer, trace } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { afterEach, describe, expect, it } from 'vitest'
import ToolOtel, { Config } from '../src/index'
import { byCallId, echo, fail, input, memoryTracing, tracedApp } from './fixtures'

const OBSERVED = ['tools/stage', 'tools/progress', 'tools/result'] as const
const listenerCount = (ctx: Context, event: (typeof OBSERVED)[number]) =>
  createScopedEmitter(ctx).listeners(event, undefined).length

afterEach(() => {
  trace.disable()
  context.disable()
})

describe('tool-otel: plugin', () => {
  it('executeBatch: one root span per call, results in model order, every span ended', async () => {
    const { ctx, spans } = await tracedApp()
    ctx.tools.register(echo)
    ctx.tools.register(fail)
    const inputs = [
      input('echo', { text: 'a' }),
      input('echo', { text: 'b' }),
      input('fail'),
      input('echo', { text: 'c' }),
    ]
    const results = await ctx.tools.executeBatch(inputs)
    expect(results.map((r) => r.isError)).toEqual([false, false, true, false])
    const finished = spans()
    expect(finished).toHaveLength(4)
    const traceIds = new Set<string>()
    for (const [index, call] of inputs.entries()) {
      const span = byCallId(finished, call.callId)
      expect(span.parentSpanContext).toBeUndefined()
      expect(span.attributes['dsh.tool.is_error']).toBe(results[index]!.isError)
      traceIds.add(span.spanContext().traceId)
    }
    expect(traceIds.size).toBe(4)
  })

  it('a call made under an active span becomes its child (an agent turn span)', async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
    const { ctx, spans, tracer, exporter } = await tracedApp()
    ctx.tools.register(echo)
    const turn = tracer.startSpan('turn')
    await context.with(trace.setSpan(context.active(), turn), () =>
      ctx.tools.execute(input('echo', { text: 'x' })),
    )
    turn.end()
    expect(exporter.getFinishedSpans()).toHaveLength(2)
    expect(spans()[0]!.parentSpanContext?.spanId).toBe(turn.spanContext().spanId)
  })

  it('zero cost without a tracer: no SDK registered → no listener installed, calls untouched', async () => {
    const ctx = new Context()
    await ctx.plugin(ToolRuntime)
    const before = OBSERVED.map((e) => listenerCount(ctx, e))
    await ctx.plugin(ToolOtel)
    expect(OBSERVED.map((e) => listenerCount(ctx, e))).toEqual(before)
    ctx.tools.register(echo)
    expect((await ctx.tools.execute(input('echo', { text: 'x' }))).isError).toBe(false)
  })

  it('the default tracer comes from the global provider once an SDK is registered', async () => {
    const { provider, exporter } = memoryTracing()
    trace.setGlobalTracerProvider(provider)
    const ctx = new Context()
    await ctx.plugin(ToolRuntime)
    await ctx.plugin(ToolOtel)
    ctx.tools.register(echo)
    await ctx.tools.execute(input('echo', { text: 'x' }))
    const [span] = exporter.getFinishedSpans()
    expect(span!.name).toBe('execute_tool echo')
    expect(span!.instrumentationScope.name).toBe('@dsh/tool-otel')
  })

  it('a tracer that throws never breaks a call, and other listeners still run', async () => {
    const broken = {
      startSpan() {
        throw new Error('exporter on fire')
      },
      startActiveSpan() {
        throw new Error('exporter on fire')
      },
    } as unknown as Tracer
    const ctx = new Context()
    await ctx.plugin(ToolRuntime)
    await ctx.plugin(ToolOtel, { tracer: broken })
    const seen: string[] = []
    ctx.on('tools/result', (execution) => {
      seen.push(execution.name)
    })
    ctx.tools.register(echo)
    const result = await ctx.tools.execute(input('echo', { text: 'fine' }))
    expect(result.isError === false && result.value).toBe('fine')
    expect(seen).toEqual(['echo'])
  })

  it('a span whose methods throw never breaks a call', async () => {
    const span = new Proxy({} as Span, {
      get: () => () => {
        throw new Error('span broken')
      },
    })
    const ctx = new Context()
    await ctx.plugin(ToolRuntime)
    await ctx.plugin(ToolOtel, { tracer: { startSpan: () => span } as unknown as Tracer })
    ctx.tools.register(echo)
    ctx.tools.register(fail)
    expect((await ctx.tools.execute(input('echo', { text: 'ok' }))).isError).toBe(false)
    const failed = await ctx.tools.execute(input('fail'))
    expect(failed.isError === true && failed.error.info?.code).toBe('TOOL_FAILED')
  })

  it('loaded in an agent scope it traces only that agent’s calls', async () => {
    const { tracer, exporter } = memoryTracing()
    const ctx = new Context()
    await ctx.plugin(ToolRuntime)
    ctx.tools.register(echo)
    const agent = createScope(ctx, 'agent-a')
    await agent.ctx.plugin(ToolOtel, { tracer })
    await ctx.tools.execute(input('echo', { text: 'global' }))
    await agent.ctx.tools.execute(input('echo', { text: 'mine' }))
    await ctx.tools.execute(input('echo', { text: 'other' }, { agent: 'agent-b' }))
    const spans = exporter.getFinishedSpans()
    expect(spans.map((s) => s.attributes['dsh.tool.agent'])).toEqual(['agent-a'])
  })

  it('disposing the plugin mid-call ends the open span and stops tracing', async () => {
    const { tracer, exporter } = memoryTracing()
    const ctx = new Context()
    await ctx.plugin(ToolRuntime)
    const fiber = await ctx.plugin(ToolOtel, { tracer })
    let release!: () => void
    let started!: () => void
    const bodyStarted = new Promise<void>((resolve) => {
      started = resolve
    })
    ctx.tools.register({
      ...echo,
      name: 'hold',
      execute: () =>
        new Promise<string>((resolve) => {
          started()
          release = () => resolve('done')
        }),
    })
    const pending = ctx.tools.execute(input('hold', { text: 'x' }))
    await bodyStarted
    await fiber.dispose()
    expect(exporter.getFinishedSpans()).toHaveLength(1)
    expect(exporter.getFinishedSpans()[0]!.status.message).toBe('tracing ended before the call')
    release()
    expect((await pending).isError).toBe(false)
    ctx.tools.register(echo)
    await ctx.tools.execute(input('echo', { text: 'y' }))
    expect(exporter.getFinishedSpans()).toHaveLength(1)
  })

  it('config is validated', () => {
    const check = (value: unknown) =>
      Config['~standard'].validate(value) as { issues?: unknown[]; value?: unknown }
    expect(check(undefined).value).toEqual({ capturePayloads: false })
    expect(check({ capturePayloads: true }).value).toEqual({ capturePayloads: true })
    const tracer = memoryTracing().tracer
    expect(check({ tracer }).value).toEqual({ tracer, capturePayloads: false })
    for (const bad of [{ capturePayloads: 'yes' }, { tracer: {} }, { tracer: 'x' }, { other: 1 }, [], 5]) {
      expect(check(bad).issues?.length).toBe(1)
    }
    // Worded like argument errors (the shared configSchema form).
    expect(check({ tracer: 'x' }).issues).toEqual([
      {
        message: '$.tracer: expected an OpenTelemetry Tracer (with startSpan), got string',
        path: ['tracer'],
      },
    ])
  })
})

// run_code through the real worker-thread runtime: sub-call spans are children of their run_code span.
import { Context } from '@deepseek-ai/cordis'
import WorkerThreadCodeRuntime from '@dsh/code-runtime-worker-thread'
import * as CodeMode from '@dsh/tools-codemode'
import { runCode } from '@dsh/tools-codemode/testing'
import ToolRuntime, { defineTool } from '@dsh/tools-core'
import { SpanStatusCode } from '@opentelemetry/api'
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import ToolOtel from '../src/index'
import { echo, fail, memoryTracing, textOutput } from './fixtures'

let ctx: Context
const tracing = memoryTracing()
let inFlight = 0
let peak = 0

beforeAll(async () => {
  ctx = new Context()
  await ctx.plugin(ToolRuntime, { mode: 'code' })
  await ctx.plugin(WorkerThreadCodeRuntime, { computeMs: 20_000 })
  await ctx.plugin(CodeMode, { maxParallelSubCalls: 4 })
  await ctx.plugin(ToolOtel, { tracer: tracing.tracer })
  ctx.tools.register(echo)
  ctx.tools.register(fail)
  ctx.tools.register(
    defineTool({
      name: 'slow',
      description: 'Overlaps with its siblings.',
      parameters: { n: { type: 'integer', required: true } },
      isConcurrencySafe: () => true,
      output: textOutput,
      async execute(args) {
        peak = Math.max(peak, ++inFlight)
        await new Promise((resolve) => setTimeout(resolve, 20))
        inFlight--
        return String(args.n)
      },
    }),
  )
  ctx.on('tools/pre-execute', async (execution, next) =>
    execution.name === 'echo' && (execution.arguments as { text: string }).text === 'forbidden'
      ? { kind: 'deny', reason: 'not in code either' }
      : next(),
  )
}, 30_000)
afterAll(async () => {
  await ctx.fiber.dispose()
})

function tree(spans: readonly ReadableSpan[], root: ReadableSpan) {
  return spans.filter((s) => s.parentSpanContext?.spanId === root.spanContext().spanId)
}

describe('tool-otel: Code Mode', () => {
  it('parallel sub-calls are children of their run_code span, in one trace', async () => {
    tracing.exporter.reset()
    peak = 0
    const result = await runCode(
      ctx,
      'return await Promise.all([1, 2, 3, 4].map((n) => tools.slow({ n })))',
      { callId: 'run-1' },
    )
    expect(result.isError).toBe(false)
    expect(peak).toBeGreaterThan(1)
    const spans = tracing.exporter.getFinishedSpans()
    const run = spans.find((s) => s.name === 'execute_tool run_code')!
    expect(run.parentSpanContext).toBeUndefined()
    const children = tree(spans, run)
    expect(children.map((s) => s.name)).toEqual(Array(4).fill('execute_tool slow'))
    expect(children.map((s) => s.attributes['gen_ai.tool.call.id']).sort()).toEqual([
      'run-1:code:1',
      'run-1:code:2',
      'run-1:code:3',
      'run-1:code:4',
    ])
    for (const child of children) {
      expect(child.spanContext().traceId).toBe(run.spanContext().traceId)
      // a child ends before its parent
      expect(child.endTime[0] * 1e9 + child.endTime[1]).toBeLessThanOrEqual(
        run.endTime[0] * 1e9 + run.endTime[1],
      )
    }
    // the run span ended last
    expect(spans.at(-1)).toBe(run)
  })

  it('a wall-clock step while a run is open does not put its sub-calls outside its span', async () => {
    // The SDK anchors each span on its own Date.now(): a clock step (a VM's correction, an NTP
    // step) between the run's start and its sub-calls' used to export children ending after
    // their parent. Step the host's wall clock 50 ms forward once the run's span is open.
    tracing.exporter.reset()
    const now = Date.now.bind(Date)
    let step = 0
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => now() + step)
    const stepOnRunStart = ctx.on('tools/stage', (execution, event) => {
      if (execution.name === 'run_code' && event.stage === 'start') step = 50
    })
    try {
      const result = await runCode(ctx, 'return await Promise.all([1, 2].map((n) => tools.slow({ n })))')
      expect(result.isError).toBe(false)
    } finally {
      stepOnRunStart()
      clock.mockRestore()
    }
    const spans = tracing.exporter.getFinishedSpans()
    const run = spans.find((s) => s.name === 'execute_tool run_code')!
    const nanos = (time: readonly [number, number]) => time[0] * 1e9 + time[1]
    const children = tree(spans, run)
    expect(children).toHaveLength(2)
    for (const child of children) {
      expect(nanos(child.startTime)).toBeGreaterThanOrEqual(nanos(run.startTime))
      expect(nanos(child.endTime)).toBeLessThanOrEqual(nanos(run.endTime))
      for (const event of child.events) expect(nanos(event.time)).toBeLessThanOrEqual(nanos(run.endTime))
    }
  })

  it('a denied and a failed sub-call carry their own error status under the run', async () => {
    tracing.exporter.reset()
    const result = await runCode(
      ctx,
      `const out = []
       for (const call of [() => tools.echo({ text: 'forbidden' }), () => tools.fail({})]) {
         try { await call() } catch (e) { out.push(String(e.message)) }
       }
       return out`,
      { callId: 'run-2' },
    )
    expect(result.isError).toBe(false)
    const spans = tracing.exporter.getFinishedSpans()
    const run = spans.find((s) => s.name === 'execute_tool run_code')!
    const [denied, failed] = tree(spans, run)
    expect(denied!.attributes['error.type']).toBe('DENIED')
    expect(denied!.events[0]!.attributes).toMatchObject({ 'dsh.tool.decision': 'deny' })
    // capture is off here: the policy's reason stays off the span
    expect(denied!.events[0]!.attributes?.['dsh.tool.reason']).toBeUndefined()
    expect(failed!.attributes['error.type']).toBe('TOOL_FAILED')
    expect(failed!.status.code).toBe(SpanStatusCode.ERROR)
    expect(run.status.code).toBe(SpanStatusCode.UNSET)
  })

  it('an aborted run ends its span as ABORTED and leaves no span open', async () => {
    tracing.exporter.reset()
    const controller = new AbortController()
    let started!: () => void
    const firstSubCall = new Promise<void>((resolve) => {
      started = resolve
    })
    let starts = 0
    const off = ctx.on('tools/stage', (_execution, event) => {
      if (event.stage === 'start') starts++
      if (event.stage === 'body-start') started()
    })
    const pending = runCode(ctx, 'while (true) { await tools.slow({ n: 1 }) }', {
      signal: controller.signal,
      callId: 'run-3',
    })
    await firstSubCall
    controller.abort()
    const result = await pending
    off()
    expect(result.isError).toBe(true)
    const spans = tracing.exporter.getFinishedSpans()
    const run = spans.find((s) => s.name === 'execute_tool run_code')!
    expect(run.status.code).toBe(SpanStatusCode.ERROR)
    // an aborted program ends run_code ABORTED, like any aborted call
    expect(run.attributes['error.type']).toBe('ABORTED')
    // capture is off: the status names the code, not the message
    expect(run.status.message).toBe(run.attributes['error.type'])
    // every call that started has ended its span
    expect(spans).toHaveLength(starts)
    for (const child of tree(spans, run)) expect(child.spanContext().traceId).toBe(run.spanContext().traceId)
  })
})

import { SpanKind, SpanStatusCode } from '@opentelemetry/api'
import { describe, expect, it } from 'vitest'
import { MAX_CAPTURED_PAYLOAD_CHARS } from '../src/index'
import { byCallId, echo, eventNames, fail, input, tracedApp } from './fixtures'

describe('tool-otel: native calls', () => {
  it('one execute_tool span per call with GenAI attributes and sizes, no payloads by default', async () => {
    const { ctx, spans } = await tracedApp()
    ctx.tools.register(echo)
    const call = input('echo', { text: 'héllo' })
    const result = await ctx.tools.execute(call)
    expect(result.isError).toBe(false)
    const [span, ...rest] = spans()
    expect(rest).toEqual([])
    expect(span!.name).toBe('execute_tool echo')
    expect(span!.kind).toBe(SpanKind.INTERNAL)
    expect(span!.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'echo',
      'gen_ai.tool.call.id': call.callId,
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.description': 'Echo the text back.',
      'dsh.tool.arguments.bytes': Buffer.byteLength(JSON.stringify({ text: 'héllo' })),
      'dsh.tool.content.bytes': Buffer.byteLength('héllo'),
      'dsh.tool.is_error': false,
    })
    expect(eventNames(span!)).toEqual(['dsh.tool.body.start', 'dsh.tool.body.end'])
    expect(span!.status.code).toBe(SpanStatusCode.UNSET)
    expect(span!.parentSpanContext).toBeUndefined()
  })

  it('capturePayloads records arguments, content and progress messages', async () => {
    const { ctx, spans } = await tracedApp({ capturePayloads: true })
    ctx.tools.register(echo)
    await ctx.tools.execute(input('echo', { text: 'secret' }))
    const [span] = spans()
    expect(span!.attributes['gen_ai.tool.call.arguments']).toBe('{"text":"secret"}')
    expect(span!.attributes['gen_ai.tool.call.result']).toBe('[{"type":"text","text":"secret"}]')
  })

  it('captured payloads are capped: a huge result or argument never lands whole on a span', async () => {
    const { ctx, spans } = await tracedApp({ capturePayloads: true })
    ctx.tools.register(echo)
    const huge = 'x'.repeat(2_000_000)
    await ctx.tools.execute(input('echo', { text: huge }))
    const [span] = spans()
    for (const key of ['gen_ai.tool.call.arguments', 'gen_ai.tool.call.result']) {
      const value = span!.attributes[key] as string
      expect(value.length).toBeLessThan(MAX_CAPTURED_PAYLOAD_CHARS + 100)
      expect(value).toMatch(/… \[\d+ chars cut\]$/)
    }
    // sizes still report the whole payload
    expect(span!.attributes['dsh.tool.content.bytes']).toBe(2_000_000)
  })

  it('without capturePayloads no attribute or event carries argument or content text', async () => {
    const { ctx, spans } = await tracedApp()
    ctx.tools.register(echo)
    await ctx.tools.execute(input('echo', { text: 'top-secret-value' }))
    expect(JSON.stringify(spans().map((s) => [s.attributes, s.events]))).not.toContain('top-secret-value')
  })

  it('a failure sets ERROR status with error.type = the error code', async () => {
    const { ctx, spans } = await tracedApp()
    ctx.tools.register(fail)
    ctx.tools.register(echo)
    await ctx.tools.execute(input('fail'))
    await ctx.tools.execute(input('missing'))
    await ctx.tools.execute(input('echo', { text: 3 }))
    const [failed, unknown, invalid] = spans()
    // Without payload capture the status names the code, never the message (it may quote payloads).
    expect(failed!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'TOOL_FAILED' })
    expect(failed!.attributes['error.type']).toBe('TOOL_FAILED')
    expect(eventNames(failed!)).toEqual(['dsh.tool.body.start', 'dsh.tool.body.end'])
    expect(failed!.events[1]!.attributes).toEqual({ 'dsh.tool.is_error': true })
    expect(unknown!.attributes['error.type']).toBe('UNKNOWN_TOOL')
    expect(unknown!.attributes['gen_ai.tool.description']).toBeUndefined()
    expect(invalid!.attributes['error.type']).toBe('INVALID_ARGS')
    expect(invalid!.events).toEqual([])
  })

  it('denials: the decision event carries kind, source and (with capture) reason; no body events', async () => {
    const { ctx, spans } = await tracedApp({ capturePayloads: true })
    ctx.tools.register(echo)
    ctx.on('tools/pre-execute', async (execution, next) =>
      (execution.arguments as { text: string }).text === 'no'
        ? { kind: 'deny', reason: 'policy says no' }
        : next(),
    )
    ctx.tools.guard((execution) =>
      (execution.arguments as { text: string }).text === 'guarded' ? 'guard says no' : undefined,
    )
    const denied = input('echo', { text: 'no' })
    const guarded = input('echo', { text: 'guarded' })
    await ctx.tools.execute(denied)
    await ctx.tools.execute(guarded)
    const policySpan = byCallId(spans(), denied.callId)
    expect(policySpan.events.map((e) => [e.name, e.attributes])).toEqual([
      [
        'dsh.tool.decision',
        {
          'dsh.tool.decision': 'deny',
          'dsh.tool.decision.source': 'pre-execute',
          'dsh.tool.reason': 'policy says no',
        },
      ],
    ])
    expect(policySpan.attributes['error.type']).toBe('DENIED')
    const guardSpan = byCallId(spans(), guarded.callId)
    expect(guardSpan.events.map((e) => e.attributes?.['dsh.tool.decision.source'])).toEqual([
      'pre-execute',
      'guard',
    ])
    expect(guardSpan.status.code).toBe(SpanStatusCode.ERROR)
  })

  it('approval waits appear as start/end events between the decision and the body', async () => {
    const { ctx, spans } = await tracedApp()
    ctx.tools.register(echo)
    ctx.on('tools/pre-execute', async () => ({ kind: 'ask', reason: 'needs a human' }) as const)
    ctx.on('tools/post-execute', async () => ({ kind: 'accept' }) as const)
    let approve = true
    ctx.provide('approval', {
      request: async () => (approve ? { approved: true } : { approved: false, reason: 'rejected' }),
    })
    await ctx.tools.execute(input('echo', { text: 'a' }))
    approve = false
    await ctx.tools.execute(input('echo', { text: 'b' }))
    const [approved, rejected] = spans()
    expect(eventNames(approved!)).toEqual([
      'dsh.tool.decision',
      'dsh.tool.approval.start',
      'dsh.tool.approval.end',
      'dsh.tool.body.start',
      'dsh.tool.body.end',
      'dsh.tool.post_decision',
    ])
    expect(approved!.events[2]!.attributes).toEqual({ 'dsh.tool.approved': true })
    // The refusal's reason is payload-like text: recorded only with capturePayloads.
    expect(rejected!.events.at(-1)!.attributes).toEqual({ 'dsh.tool.approved': false })
    expect(rejected!.attributes['error.type']).toBe('DENIED')
  })

  it('aborts: before dispatch no body events; mid-body ABORTED after the body ended', async () => {
    const { ctx, spans } = await tracedApp()
    ctx.tools.register(echo)
    let started!: () => void
    const bodyStarted = new Promise<void>((resolve) => {
      started = resolve
    })
    ctx.tools.register({
      ...echo,
      name: 'wait',
      execute: (_args: unknown, exec: { signal: AbortSignal }) =>
        new Promise<string>((resolve) => {
          started()
          exec.signal.addEventListener('abort', () => resolve('late'))
        }),
    })
    const before = new AbortController()
    before.abort()
    await ctx.tools.execute(input('echo', { text: 'x' }, { signal: before.signal }))
    const during = new AbortController()
    const pending = ctx.tools.execute(input('wait', { text: 'x' }, { signal: during.signal }))
    await bodyStarted
    during.abort()
    await pending
    const [pre, mid] = spans()
    expect(pre!.attributes['error.type']).toBe('ABORTED_BEFORE_DISPATCH')
    expect(pre!.events).toEqual([])
    expect(mid!.attributes['error.type']).toBe('ABORTED')
    expect(eventNames(mid!)).toEqual(['dsh.tool.body.start', 'dsh.tool.body.end'])
  })

  it('progress reports become span events (message only with capturePayloads)', async () => {
    for (const capturePayloads of [false, true]) {
      const { ctx, spans } = await tracedApp({ capturePayloads })
      ctx.tools.register({
        ...echo,
        name: 'steps',
        execute: (_args: unknown, exec: { progress(u: object): void }) => {
          exec.progress({ progress: 1, total: 2, message: 'half way' })
          return 'done'
        },
      })
      await ctx.tools.execute(input('steps', { text: 'x' }))
      const progress = spans()[0]!.events.find((e) => e.name === 'dsh.tool.progress')!
      expect(progress.attributes).toEqual({
        'dsh.tool.progress': 1,
        'dsh.tool.progress.total': 2,
        ...(capturePayloads ? { 'dsh.tool.progress.message': 'half way' } : {}),
      })
    }
  })
})

import { createScope, defineTool } from '@dsh/tools-core'
import { SpanStatusCode } from '@opentelemetry/api'
import { describe, expect, it } from 'vitest'
import { input, textOutput, tracedApp } from './fixtures'

describe('tool-otel: calls ended by a disposal', () => {
  it('an agent scope disposed mid-call ends its span ABORTED, even when the body ignores its signal', async () => {
    const app = await tracedApp({}, { disposeGraceMs: 50 })
    let release!: () => void
    let started!: () => void
    const bodyStarted = new Promise<void>((resolve) => {
      started = resolve
    })
    app.ctx.tools.register(
      defineTool({
        name: 'hold',
        description: 'Ignores its signal.',
        parameters: {},
        output: textOutput,
        execute: () =>
          new Promise<string>((resolve) => {
            started()
            release = () => resolve('done')
          }),
      }),
    )
    const scope = createScope(app.ctx, 'agent')
    const pending = scope.ctx.tools.execute(input('hold'))
    await bodyStarted
    await scope.dispose()
    const result = await pending
    expect(result.isError && result.error.info?.code).toBe('ABORTED')
    const [span, ...rest] = app.spans()
    expect(rest).toEqual([])
    expect(span!.attributes['error.type']).toBe('ABORTED')
    expect(span!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'ABORTED' })
    // The abandoned body settles later: no second span end, no event after the result.
    const events = span!.events.length
    release()
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(app.spans()).toHaveLength(1)
    expect(app.spans()[0]!.events.length).toBe(events)
    await app.ctx.fiber.dispose()
  })
})

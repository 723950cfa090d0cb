import { defineTool } from '@dsh/tools-core'
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base'
import { describe, expect, it } from 'vitest'
import { input, textOutput, tracedApp } from './fixtures'

const SECRET = 'hunter2-0xDEADBEEF'

/** Everything a span exports that could carry text: attributes, events (with attributes), status, links. */
function exported(spans: readonly ReadableSpan[]): string {
  return JSON.stringify(
    spans.map((span) => ({
      name: span.name,
      attributes: span.attributes,
      events: span.events,
      status: span.status,
      links: span.links,
    })),
  )
}

/** A tool whose failures and progress quote its argument, like a real file reader's would. */
const quoting = defineTool({
  name: 'open_file',
  description: 'Open a file.',
  parameters: { path: { type: 'string', required: true }, mode: { type: 'string', enum: ['r', 'w'] } },
  output: textOutput,
  async execute(args, exec) {
    exec.progress({ message: `opening ${args.path}`, progress: 1 })
    if (args.path.startsWith('fail:')) throw new Error(`cannot open ${args.path}: permission denied`)
    return `contents of ${args.path}`
  },
})

/** Every failure path whose message, reason or payload can quote the arguments or the result. */
async function exercise(capturePayloads: boolean) {
  const app = await tracedApp({ capturePayloads })
  const { ctx } = app
  ctx.tools.register(quoting)
  ctx.tools.guard((exec) => {
    const path = (exec.arguments as { path?: string }).path ?? ''
    return path.startsWith('guard:') ? `argument "${path}" is off limits` : undefined
  })
  ctx.on('tools/pre-execute', async (exec, next) => {
    const path = (exec.arguments as { path?: string }).path ?? ''
    if (path.startsWith('deny:')) return { kind: 'deny', reason: `refusing ${path}` }
    if (path.startsWith('ask:')) return { kind: 'ask', reason: `may I open ${path}?` }
    return next()
  })
  ctx.on('tools/post-execute', async (exec, result, next) => {
    const path = (exec.arguments as { path?: string }).path ?? ''
    if (path.startsWith('block:') && !result.isError) return { kind: 'block', feedback: `hiding ${path}` }
    return next()
  })
  ctx.provide('approval', {
    request: async (exec: { arguments: { path: string } }) => ({
      approved: false,
      reason: `no, not ${exec.arguments.path}`,
    }),
  })
  ctx.on('tools/progress', () => {})
  const paths = ['fail:', 'guard:', 'deny:', 'ask:', 'block:', 'ok:']
  for (const prefix of paths) await ctx.tools.execute(input('open_file', { path: `${prefix}${SECRET}` }))
  await ctx.tools.execute(input('open_file', { path: 'x', mode: SECRET }))
  await ctx.tools.execute(input('open_file', { path: 'x', extra: SECRET }))
  const spans = app.spans()
  await ctx.fiber.dispose()
  return spans
}

describe('tool-otel: without capturePayloads no payload text reaches a span', () => {
  it('no argument, result, failure message or policy reason in any attribute, event or status', async () => {
    const spans = await exercise(false)
    expect(spans).toHaveLength(8)
    expect(exported(spans)).not.toContain(SECRET)
    // the failures are still legible: error.type and the status name the code
    const codes = spans.map((span) => span.attributes['error.type'])
    expect(codes).toEqual([
      'TOOL_FAILED',
      'DENIED',
      'DENIED',
      'DENIED',
      'DENIED',
      undefined,
      'INVALID_ARGS',
      undefined,
    ])
    for (const span of spans) {
      if (span.attributes['error.type'] !== undefined)
        expect(span.status.message).toBe(span.attributes['error.type'])
    }
  })

  it('with capturePayloads the same run records the messages and reasons (the switch is the only difference)', async () => {
    const text = exported(await exercise(true))
    for (const quoted of [
      `cannot open fail:${SECRET}`,
      `argument \\"guard:${SECRET}\\" is off limits`,
      `refusing deny:${SECRET}`,
      `no, not ask:${SECRET}`,
      `opening ok:${SECRET}`,
    ])
      expect(text).toContain(quoted)
  })
})

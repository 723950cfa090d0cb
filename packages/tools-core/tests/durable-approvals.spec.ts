// The tools-core side of durable approvals (SPEC §13.2): an approval service may answer
// `suspend`; the call then ends APPROVAL_PENDING with `result.pending` before any guard or body;
// a store failure while asking is STORE_UNAVAILABLE; resume without a durable service says so.
// The durable service itself (and every resume path) is tested in @dsh/tool-approvals.
import { describe, expect, it } from 'vitest'
import {
  canonicalJson,
  mintTicket,
  StoreUnavailableError,
  type ToolExecutionResult,
  type ToolFailure,
  ticketAgent,
  toolFingerprint,
} from '../src/index'
import { call, createRuntime, echoTool } from './fixtures/runtime'

async function askedRuntime() {
  const ctx = await createRuntime()
  let bodies = 0
  let guards = 0
  ctx.tools.register(
    echoTool('echo', {
      execute: ({ text }: { text: string }) => {
        bodies++
        return text
      },
    } as never),
  )
  ctx.tools.guard(() => {
    guards++
    return undefined
  })
  ctx.on('tools/pre-execute', async () => ({ kind: 'ask', reason: 'check' }) as const)
  const published: ToolExecutionResult[] = []
  ctx.on('tools/result', (_execution, result) => {
    published.push(result)
  })
  return { ctx, counts: () => ({ bodies, guards }), published }
}

describe('an approval service that answers suspend', () => {
  it('ends the call APPROVAL_PENDING with result.pending; no guard and no body ran; tools/result is published', async () => {
    const { ctx, counts, published } = await askedRuntime()
    const details: unknown[] = []
    ctx.provide('approval', {
      request: async (_execution: unknown, _reason: unknown, detail: unknown) => {
        details.push(detail)
        return { suspend: { ticket: 'apr..ticket-for-the-test-000', expiresAt: 1_900_000_000_000 } }
      },
    })
    const result = (await ctx.tools.execute(call('echo', { text: 'hi' }))) as ToolFailure
    expect(result.error.info?.code).toBe('APPROVAL_PENDING')
    expect(result.pending).toEqual({
      ticket: 'apr..ticket-for-the-test-000',
      tool: 'echo',
      agent: '',
      reason: 'check',
      expiresAt: 1_900_000_000_000,
    })
    expect(result.content).toEqual([{ type: 'text', text: `Error: ${result.error.message}` }])
    expect(result.error.message).toMatch(
      /waiting for a person's approval \(check\), ticket apr\.\.ticket-for-the-test-000; it has not run/,
    )
    expect(counts()).toEqual({ bodies: 0, guards: 0 })
    expect(published).toEqual([result])
    expect(details).toEqual([{ fingerprint: toolFingerprint(ctx.tools.get('echo')!) }])
  })

  it('the inline seam still works: approved runs the guards and the body', async () => {
    const { ctx, counts } = await askedRuntime()
    ctx.provide('approval', { request: async () => ({ approved: true }) })
    expect(await ctx.tools.execute(call('echo', { text: 'hi' }))).toMatchObject({
      isError: false,
      value: 'hi',
    })
    expect(counts()).toEqual({ bodies: 1, guards: 1 })
  })

  it('a store that cannot be reached while asking: STORE_UNAVAILABLE (not DENIED), nothing ran', async () => {
    const { ctx, counts } = await askedRuntime()
    ctx.provide('approval', {
      request: async () => {
        throw new StoreUnavailableError('tool state store sqlite /data/tools.db: disk I/O error')
      },
    })
    const result = (await ctx.tools.execute(call('echo', { text: 'hi' }))) as ToolFailure
    expect(result.error).toEqual({
      message: 'tool state store sqlite /data/tools.db: disk I/O error',
      info: { name: 'StoreUnavailableError', code: 'STORE_UNAVAILABLE' },
    })
    expect(counts()).toEqual({ bodies: 0, guards: 0 })
  })

  it('resume without a durable approval service is STORE_UNAVAILABLE, and a signal is required', async () => {
    const { ctx } = await askedRuntime()
    const result = (await ctx.tools.resume(mintTicket(''), {
      signal: new AbortController().signal,
    })) as ToolFailure
    expect(result.error.info?.code).toBe('STORE_UNAVAILABLE')
    expect(result.error.message).toMatch(/no durable approval service is loaded/)
    await expect(ctx.tools.resume(mintTicket(''), undefined as never)).rejects.toThrow(/signal/)
  })
})

describe('fingerprints and tickets', () => {
  const base = echoTool()
  it('the fingerprint binds name, parameters, output schema and annotations, not the description', () => {
    const print = toolFingerprint(base)
    expect(print).toMatch(/^[0-9a-f]{64}$/)
    expect(toolFingerprint({ ...base, description: 'reworded' } as never)).toBe(print)
    expect(toolFingerprint({ ...base, name: 'other' } as never)).not.toBe(print)
    expect(toolFingerprint({ ...base, annotations: { idempotent: true } } as never)).not.toBe(print)
    expect(toolFingerprint({ ...base, parameters: { ...base.parameters, required: [] } } as never)).not.toBe(
      print,
    )
    expect(
      toolFingerprint({ ...base, output: { ...base.output, schema: { type: 'number' } } } as never),
    ).not.toBe(print)
  })

  it('canonical JSON does not depend on key order', () => {
    expect(canonicalJson({ b: [1, { d: 2, c: 3 }], a: 'x' })).toBe(
      canonicalJson({ a: 'x', b: [1, { c: 3, d: 2 }] }),
    )
    expect(canonicalJson({ b: 1, a: 2 })).toBe('{"a":2,"b":1}')
  })

  it('a ticket carries its agent and 144 random bits; anything else is not a ticket', () => {
    const tickets = new Set(Array.from({ length: 100 }, () => mintTicket('agent/ü')))
    expect(tickets.size).toBe(100)
    for (const ticket of tickets) expect(ticketAgent(ticket)).toBe('agent/ü')
    expect(ticketAgent(mintTicket(''))).toBe('')
    for (const bad of ['', 'apr', 'apr..short', 'tkt..AAAAAAAAAAAAAAAAAAAAAAAA', 42, undefined])
      expect(ticketAgent(bad)).toBeUndefined()
  })
})

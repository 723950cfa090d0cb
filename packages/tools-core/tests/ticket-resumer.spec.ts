import { Context } from '@deepseek-ai/cordis'
import { describe, expect, it } from 'vitest'
import ToolRuntime, { ApprovalPendingError, failureOf, ticketKind } from '../src/index'

const signal = () => new AbortController().signal

describe('ctx.tools.resume routes tickets by kind (provideResumer)', () => {
  it('a ticket of a registered kind goes to its resumer with the caller scope; disposal removes it', async () => {
    const ctx = new Context()
    await ctx.plugin(ToolRuntime)
    const seen: unknown[] = []
    const remove = ctx.tools.provideResumer('run', async (ticket, options) => {
      seen.push([ticket, options.scope])
      return failureOf(
        new ApprovalPendingError('still waiting', {
          pending: { ticket, tool: 'run_code', agent: '', expiresAt: 1 },
        }),
      )
    })
    const result = await ctx.tools.resume('run.YQ.abcdefghijklmnopqrstuvwx', { signal: signal() })
    expect(seen).toEqual([['run.YQ.abcdefghijklmnopqrstuvwx', undefined]])
    expect(result).toMatchObject({
      isError: true,
      error: { info: { code: 'APPROVAL_PENDING' } },
      pending: { tool: 'run_code' },
    })
    remove()
    const after = await ctx.tools.resume('run.YQ.abcdefghijklmnopqrstuvwx', { signal: signal() })
    expect(after).toMatchObject({ isError: true, error: { info: { code: 'STORE_UNAVAILABLE' } } })
    expect(seen).toHaveLength(1)
  })

  it('refuses a second resumer of one kind, and the approval kind', async () => {
    const ctx = new Context()
    await ctx.plugin(ToolRuntime)
    const resumer = async () => failureOf(new ApprovalPendingError('x'))
    ctx.tools.provideResumer('run', resumer)
    expect(() => ctx.tools.provideResumer('run', resumer)).toThrow(/already have a resumer/)
    expect(() => ctx.tools.provideResumer('apr', resumer)).toThrow(/ticket kind/)
    expect(() => ctx.tools.provideResumer('Run!', resumer)).toThrow(/ticket kind/)
  })

  it('ticketKind reads the text before the first dot', () => {
    expect(ticketKind('run.a.b')).toBe('run')
    expect(ticketKind('apr.a.b')).toBe('apr')
    expect(ticketKind('nodot')).toBeUndefined()
    expect(ticketKind(42)).toBeUndefined()
  })
})

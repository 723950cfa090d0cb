import type { ApprovalTicketData, StoredRecordRef, ToolFailure, ToolStateStore } from '@dsh/tools-core'
import { describe, expect, it } from 'vitest'
import { approvalsRuntime, call, deployTool, signal } from './fixtures/approvals-runtime'

type Ctx = Awaited<ReturnType<typeof approvalsRuntime>>

async function approvedTicket(ctx: Ctx, runs: string[], approve = true) {
  ctx.tools.register(deployTool(runs))
  const result = (await ctx.tools.execute(call('deploy', { target: 'prod' }))) as ToolFailure
  const ticket = result.pending!.ticket
  await ctx.approvals.decide(ticket, { approve, by: 'ana' })
  return ticket
}

/** Rewrite the stored record as someone with write access to the database would. */
async function alter(
  ctx: Ctx,
  ticket: string,
  change: (data: ApprovalTicketData) => ApprovalTicketData,
  state?: string,
) {
  const store = ctx.get('toolStore') as ToolStateStore
  const ref: StoredRecordRef = { kind: 'approval', agent: '', key: ticket }
  const record = (await store.get(ref))!
  const data = change(JSON.parse(record.data) as ApprovalTicketData)
  const updated = await store.update(ref, record.version, {
    state: state ?? record.state,
    data: JSON.stringify(data),
    updatedAt: Date.now(),
  })
  expect(updated).toBeDefined()
}

async function expectInvalid(ctx: Ctx, ticket: string, runs: string[], message: RegExp) {
  const result = await ctx.tools.resume(ticket, { signal: signal() })
  expect(result).toMatchObject({ isError: true, error: { info: { code: 'APPROVAL_INVALID' } } })
  expect((result as ToolFailure).error.message).toMatch(message)
  expect(runs).toEqual([])
}

describe('a record altered in the store is refused as APPROVAL_INVALID', () => {
  it('arguments changed after the approval', async () => {
    const ctx = await approvalsRuntime()
    const runs: string[] = []
    const ticket = await approvedTicket(ctx, runs)
    await alter(ctx, ticket, (data) => ({ ...data, arguments: { target: 'everything' } }))
    await expectInvalid(ctx, ticket, runs, /arguments do not match/)
  })

  it('arguments and their hash changed together', async () => {
    const ctx = await approvalsRuntime()
    const runs: string[] = []
    const ticket = await approvedTicket(ctx, runs)
    const { argumentsHash } = await import('@dsh/tools-core')
    const args = { target: 'everything' }
    await alter(ctx, ticket, (data) => ({ ...data, arguments: args, argumentsHash: argumentsHash(args) }))
    await expectInvalid(ctx, ticket, runs, /signature of its decision does not match/)
  })

  it.each([
    ['the expiry', (data: ApprovalTicketData) => ({ ...data, expiresAt: data.expiresAt + 1 })],
    ['the fingerprint', (data: ApprovalTicketData) => ({ ...data, fingerprint: '0'.repeat(64) })],
    [
      'the reviewer',
      (data: ApprovalTicketData) => ({ ...data, decision: { ...data.decision!, by: 'mallory' } }),
    ],
    [
      'the signature',
      (data: ApprovalTicketData) => ({ ...data, decision: { ...data.decision!, signature: 'f'.repeat(64) } }),
    ],
  ])('%s changed', async (_what, change) => {
    const ctx = await approvalsRuntime()
    const runs: string[] = []
    const ticket = await approvedTicket(ctx, runs)
    await alter(ctx, ticket, change)
    await expectInvalid(ctx, ticket, runs, /approval .* is invalid/)
  })

  it('a denial flipped to an approval (decision and state)', async () => {
    const ctx = await approvalsRuntime()
    const runs: string[] = []
    const ticket = await approvedTicket(ctx, runs, false)
    await alter(
      ctx,
      ticket,
      (data) => ({ ...data, decision: { ...data.decision!, approve: true } }),
      'approved',
    )
    await expectInvalid(ctx, ticket, runs, /signature of its decision does not match/)
  })

  it('a denial whose state alone was set to approved', async () => {
    const ctx = await approvalsRuntime()
    const runs: string[] = []
    const ticket = await approvedTicket(ctx, runs, false)
    await alter(ctx, ticket, (data) => data, 'approved')
    await expectInvalid(ctx, ticket, runs, /signed decision says deny/)
  })

  it('a pending record set to approved without a decision', async () => {
    const ctx = await approvalsRuntime()
    const runs: string[] = []
    ctx.tools.register(deployTool(runs))
    const result = (await ctx.tools.execute(call('deploy', { target: 'prod' }))) as ToolFailure
    await alter(ctx, result.pending!.ticket, (data) => data, 'approved')
    await expectInvalid(ctx, result.pending!.ticket, runs, /holds no decision/)
  })

  it('a decision signed with another key', async () => {
    const ctx = await approvalsRuntime()
    const runs: string[] = []
    const ticket = await approvedTicket(ctx, runs)
    const other = await approvalsRuntime(
      { signingKey: 'another-signing-key-0123456789abcd' },
      ctx.get('toolStore'),
    )
    other.tools.register(deployTool(runs))
    await expectInvalid(other, ticket, runs, /signed with another key/)
  })

  it('a record whose text is not an approval any more: left out of listings, refused by decide and resume', async () => {
    const ctx = await approvalsRuntime()
    const runs: string[] = []
    ctx.tools.register(deployTool(runs))
    const result = (await ctx.tools.execute(call('deploy', { target: 'prod' }))) as ToolFailure
    const ticket = result.pending!.ticket
    const store = ctx.get('toolStore') as ToolStateStore
    const ref: StoredRecordRef = { kind: 'approval', agent: '', key: ticket }
    const record = (await store.get(ref))!
    await store.update(ref, record.version, {
      state: 'pending',
      data: '{"not":"an approval"',
      updatedAt: Date.now(),
    })
    expect(await ctx.approvals.list()).toEqual([])
    expect(await ctx.approvals.get(ticket)).toBeUndefined()
    await expect(ctx.approvals.decide(ticket, { approve: true, by: 'ana' })).rejects.toThrow(/unreadable/)
    await expectInvalid(ctx, ticket, runs, /unreadable/)
  })
})

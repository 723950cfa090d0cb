/**
 * The resumer of run tickets (SPEC §13.3), registered with `ctx.tools.provideResumer('run', …)`:
 * read the run back, check it (every nested approval decided, program and tools unchanged),
 * claim it (`suspended → running`, a lease) and run the program again as a `run_code` call
 * whose body replays the ledger; then store the final result (`running → done`) — or the body
 * wrote the run back to `suspended` because it asked again.
 */
import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import {
  ApprovalInvalidError,
  ApprovalPendingError,
  failureOf,
  OutcomeUnknownError,
  resultFromStore,
  type StoredRecord,
  type StoredRecordRef,
  StoreUnavailableError,
  sha256Hex,
  storedResult,
  type TicketResumeOptions,
  type ToolExecutionResult,
  type ToolStateStore,
  toolFingerprint,
} from '@dsh/tools-core'
import type { ToolRuntimePort } from '../bridge-ports'
import type { DurableRuns, ReplayPlan } from './durable-runs'
import { parseRunRecord, type RunRecordData, RunState } from './run-record'
import { runTicketAgent } from './run-ticket'

/** What the resumer starts its `run_code` call through. */
export type ResumeTools = Required<Pick<ToolRuntimePort, 'execute' | 'get'>>

function invalid(ticket: string, why: string): ToolExecutionResult {
  return failureOf(new ApprovalInvalidError(`run ${ticket} is invalid: ${why}`))
}

/** The run's `APPROVAL_PENDING` again: some approval inside it is still undecided. */
function stillPending(data: RunRecordData, undecided: number): ToolExecutionResult {
  const error = new ApprovalPendingError(
    `run_code run ${data.ticket} still waits for ${undecided} of its ${data.approvals.length} approvals; it has not continued`,
    {
      pending: {
        ticket: data.ticket,
        tool: 'run_code',
        agent: data.agent,
        reason: `${data.approvals.length} approval${data.approvals.length === 1 ? '' : 's'} inside the program`,
        expiresAt: Math.min(...data.approvals.map((approval) => approval.expiresAt)),
        approvals: data.approvals,
      },
    },
  )
  return failureOf(error)
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
  })
}

/** Why the run cannot be replayed as recorded (program or tools changed), or `undefined`. */
function changed(tools: ResumeTools, data: RunRecordData): string | undefined {
  if (sha256Hex(data.code) !== data.codeHash) return 'its program was changed since it suspended'
  const scope = data.agent === '' ? undefined : data.agent
  for (const [name, fingerprint] of Object.entries(data.fingerprints)) {
    const definition = tools.get(name, scope)
    if (definition === undefined) return `the tool \`${name}\` it could call is gone`
    if (toolFingerprint(definition) !== fingerprint)
      return `the tool \`${name}\` changed since the run suspended (name, parameters, output or annotations)`
  }
  return undefined
}

/** How many of the run's approvals are still undecided. */
async function undecided(store: ToolStateStore, data: RunRecordData): Promise<number> {
  let count = 0
  for (const approval of data.approvals) {
    const record = await store.get({ kind: 'approval', agent: data.agent, key: approval.ticket })
    if (record?.state === 'pending') count++
  }
  return count
}

/** Renew the lease every third of `leaseMs` while the run replays; returns the stop function. */
function keepLease(
  store: ToolStateStore,
  plan: ReplayPlan,
  owner: string,
  leaseMs: number,
): () => Promise<void> {
  let renewing: Promise<unknown> = Promise.resolve()
  const timer = setInterval(
    () => {
      renewing = renewing.then(async () => {
        if (plan.resuspended) return
        const now = Date.now()
        const renewed = await store
          .update(plan.ref, plan.record.version, {
            state: RunState.RUNNING,
            lease: { owner, until: now + leaseMs },
            updatedAt: now,
          })
          .catch(() => undefined)
        if (renewed !== undefined) plan.record = renewed
      })
    },
    Math.max(1, Math.floor(leaseMs / 3)),
  )
  timer.unref?.()
  return async () => {
    clearInterval(timer)
    await renewing
  }
}

/** Build the run-ticket resumer (see the module comment). */
export function createRunResumer(durable: DurableRuns, tools: ResumeTools) {
  return async (ticket: string, options: TicketResumeOptions): Promise<ToolExecutionResult> => {
    const agent = runTicketAgent(ticket)
    if (agent === undefined)
      return failureOf(
        new ApprovalInvalidError(`not a run ticket: ${JSON.stringify(String(ticket)).slice(0, 80)}`),
      )
    if (options.scope !== undefined && options.scope !== agent)
      return invalid(ticket, `it is not a ticket of agent scope \`${options.scope}\``)
    const store = durable.store()
    if (store === undefined)
      return failureOf(new StoreUnavailableError('ctx.tools.resume(): no tool state store is loaded'))
    const ref: StoredRecordRef = { kind: 'run', agent, key: ticket }
    const owner = `${hostname()}/${process.pid}/${randomBytes(6).toString('hex')}`
    try {
      for (let attempt = 0; ; attempt++) {
        const record = await store.get(ref)
        if (record === undefined) return invalid(ticket, 'no such run (unknown, or expired and swept)')
        const answer = await step(store, record, ticket, owner, options)
        if (answer !== 'wait') return answer
        if (options.signal.aborted)
          return invalid(ticket, 'the resume was aborted while another process ran it')
        await sleep(Math.min(500, 10 * 2 ** Math.min(attempt, 6)), options.signal)
      }
    } catch (error) {
      if (error instanceof StoreUnavailableError) return failureOf(error)
      return failureOf(
        new StoreUnavailableError(
          `tool state store ${store.label}: ${error instanceof Error ? error.message : error}`,
          {
            cause: error,
          },
        ),
      )
    }
  }

  async function step(
    store: ToolStateStore,
    record: StoredRecord,
    ticket: string,
    owner: string,
    options: TicketResumeOptions,
  ): Promise<ToolExecutionResult | 'wait'> {
    const data = parseRunRecord(record.data)
    if (data === undefined || data.ticket !== ticket || data.agent !== record.agent)
      return invalid(ticket, 'its stored record is unreadable')
    const ref: StoredRecordRef = { kind: 'run', agent: data.agent, key: ticket }
    if (record.state === RunState.DONE)
      return resultFromStore(data.result) ?? invalid(ticket, 'its stored result is unreadable')
    if (record.state === RunState.RUNNING) {
      if (record.lease !== undefined && record.lease.until > Date.now()) return 'wait'
      // Its process died mid-replay: calls past the ledger may have run, so it is not run again.
      const result = failureOf(
        new OutcomeUnknownError(
          `the process resuming run ${ticket} stopped before it finished; whether its remaining calls took effect is unknown, and it is not run again`,
        ),
      )
      const done = await store.update(ref, record.version, {
        state: RunState.DONE,
        data: JSON.stringify({ ...data, result: storedResult(result) }),
        lease: null,
        updatedAt: Date.now(),
      })
      return done === undefined ? 'wait' : result
    }
    if (record.state !== RunState.SUSPENDED) return invalid(ticket, `unknown state \`${record.state}\``)
    const open = await undecided(store, data)
    if (open > 0) return stillPending(data, open)
    const why = changed(tools, data)
    if (why !== undefined) return invalid(ticket, `${why}; it is not resumed`)
    const now = Date.now()
    const claimed = await store.update(ref, record.version, {
      state: RunState.RUNNING,
      lease: { owner, until: now + durable.leaseMs() },
      updatedAt: now,
    })
    if (claimed === undefined) return 'wait'
    return replay(store, { data, ref, record: claimed, started: false, resuspended: false }, owner, options)
  }

  async function replay(
    store: ToolStateStore,
    plan: ReplayPlan,
    owner: string,
    options: TicketResumeOptions,
  ): Promise<ToolExecutionResult> {
    const { data } = plan
    const callId = `${data.callId}:resume:${plan.record.version}`
    durable.replays.set(callId, plan)
    const stopLease = keepLease(store, plan, owner, durable.leaseMs())
    let result: ToolExecutionResult
    try {
      result = await tools.execute({
        callId,
        name: 'run_code',
        arguments: { code: data.code, description: data.description },
        signal: options.signal,
        ...(data.agent === '' ? {} : { agent: data.agent }),
      })
    } finally {
      durable.replays.delete(callId)
      await stopLease()
    }
    if (plan.resuspended) return result
    const now = Date.now()
    if (!plan.started) {
      // The pipeline refused the call before its body (aborted, a guard): the run stays resumable.
      await store.update(plan.ref, plan.record.version, {
        state: RunState.SUSPENDED,
        lease: null,
        updatedAt: now,
      })
      return result
    }
    await store.update(plan.ref, plan.record.version, {
      state: RunState.DONE,
      data: JSON.stringify({ ...data, result: storedResult(result) }),
      lease: null,
      expiresAt: now + durable.retainMs(),
      updatedAt: now,
    })
    return result
  }
}

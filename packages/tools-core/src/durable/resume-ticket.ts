/**
 * `ctx.tools.resume(ticket)` (SPEC §13.2): read the ticket back from the store, check it, and
 * either answer from it (pending, denied, expired, done) or claim it and continue the call at
 * the guards — exactly once across every process sharing the store.
 */
import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import { isToolsError } from '@dsh/tools-schema'
import {
  AbortedBeforeDispatchError,
  ApprovalExpiredError,
  ApprovalInvalidError,
  DeniedError,
  OutcomeUnknownError,
  StoreUnavailableError,
} from '../errors'
import { prepareCall } from '../pipeline/prepare-call'
import { publishResult } from '../pipeline/publish-result'
import { failureOf, messageOf } from '../pipeline/results'
import { runStages, StageIndex } from '../pipeline/stage-list'
import type { PipelineRuntime, ToolCall } from '../pipeline/tool-call'
import type { StoredRecord, StoredRecordRef } from '../store/tool-state-store'
import type { ToolExecutionResult } from '../types'
import { ApprovalState, type ApprovalTicketData, ticketAgent } from './approval-ticket'
import type { DurableApprovalService } from './durable-approval'
import { pendingFailure } from './pending-result'
import { type HeldClaim, runClaimed, storeOutcome } from './run-claimed'
import { resultFromStore } from './stored-result'
import { checkTicket } from './ticket-checks'
import { toolFingerprint } from './tool-fingerprint'
import { waitFor } from './wait-for'

/** Options of `ctx.tools.resume`. */
export interface ResumeOptions {
  /** Ends a wait for another process's run, and is the resumed call's signal. */
  readonly signal: AbortSignal
}

/** One resume in progress: what every step of it needs. */
interface Resumption {
  readonly runtime: PipelineRuntime
  readonly service: DurableApprovalService
  readonly ref: StoredRecordRef
  /** The lease owner this resume claims as (host, pid and a random part). */
  readonly owner: string
  readonly signal: AbortSignal
  /** The calling ctx's fiber (its disposal ends the resumed call). */
  readonly fiber: object | undefined
}

/** A store call; anything it throws becomes `STORE_UNAVAILABLE` naming the store. */
async function stored<T>(service: DurableApprovalService, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation()
  } catch (error) {
    if (error instanceof StoreUnavailableError) throw error
    throw new StoreUnavailableError(`tool state store ${service.store.label}: ${messageOf(error)}`, {
      cause: error,
    })
  }
}

/**
 * The call as it resumes: re-resolved for its agent (gone → `UNKNOWN_TOOL`), its fingerprint
 * checked (changed → `APPROVAL_INVALID`), its arguments revalidated (step 4, `parseArguments`
 * included). A settled call's result is final and is not stored: a tool registered again may
 * resume later.
 */
async function prepareResumed(
  runtime: PipelineRuntime,
  data: ApprovalTicketData,
  signal: AbortSignal,
  owner: object | undefined,
): Promise<ToolCall> {
  const call = prepareCall(runtime, {
    callId: data.callId,
    name: data.tool,
    arguments: data.arguments,
    signal,
    ...(data.agent === '' ? {} : { agent: data.agent }),
    // A nested call resolves as one (its outer call is gone; it is not a top-level call either).
    ...(data.parentCallId === undefined ? {} : { parent: Symbol('dsh-tools.resumed-parent') as never }),
  })
  call.owner = owner
  if (call.result === undefined && toolFingerprint(call.tool!.definition) !== data.fingerprint) {
    call.result = failureOf(
      new ApprovalInvalidError(
        `approval ${data.ticket} is invalid: tool \`${data.tool}\` changed since the call was approved (its name, parameters, output schema or annotations differ); ask again`,
      ),
    )
  }
  if (call.result === undefined) await runStages(call, StageIndex.PREPARE, StageIndex.POLICY)
  return call
}

function expired(data: ApprovalTicketData): ToolExecutionResult {
  return failureOf(
    new ApprovalExpiredError(
      `approval ${data.ticket} for \`${data.tool}\` expired at ${new Date(data.expiresAt).toISOString()}; it did not run`,
    ),
  )
}

function pendingOf(data: ApprovalTicketData): ToolExecutionResult {
  return pendingFailure({
    ticket: data.ticket,
    tool: data.tool,
    agent: data.agent,
    ...(data.reason === undefined ? {} : { reason: data.reason }),
    expiresAt: data.expiresAt,
  })
}

/** One look at the record: a final answer, `'wait'` (another process holds a live lease) or `'again'` (a claim race lost). */
async function step(resumption: Resumption): Promise<ToolExecutionResult | 'wait' | 'again'> {
  const { service, ref } = resumption
  const record = await stored(service, () => service.store.get(ref))
  if (record === undefined)
    return failureOf(
      new ApprovalInvalidError(`approval ${ref.key} is unknown (never asked, or swept after it expired)`),
    )
  const data = checkTicket(record, ref.key, ref.agent, service)
  if (isToolsError(data)) return failureOf(data)
  const now = Date.now()
  switch (record.state) {
    case ApprovalState.PENDING:
      return now >= data.expiresAt ? expired(data) : pendingOf(data)
    case ApprovalState.DENIED:
      return failureOf(new DeniedError(data.decision?.note || 'tool call was not approved'))
    case ApprovalState.DONE:
      return (
        resultFromStore(data.result) ??
        failureOf(new ApprovalInvalidError(`approval ${ref.key} is invalid: its stored result is unreadable`))
      )
    case ApprovalState.APPROVED:
      if (now >= data.expiresAt) return expired(data)
      return claimAndRun(resumption, record, data)
    case ApprovalState.RUNNING:
      if (record.lease !== undefined && record.lease.until > now) return 'wait'
      return recover(resumption, record, data)
    default:
      return failureOf(
        new ApprovalInvalidError(`approval ${ref.key} is invalid: unknown state \`${record.state}\``),
      )
  }
}

/** `approved → running` (or a dead `running` taken over) in this process's name, then run. */
async function claimAndRun(
  resumption: Resumption,
  record: StoredRecord,
  data: ApprovalTicketData,
): Promise<ToolExecutionResult | 'again'> {
  const { runtime, service, ref, owner, signal, fiber } = resumption
  const call = await prepareResumed(runtime, data, signal, fiber)
  if (call.result !== undefined) return publishResult(call)
  const now = Date.now()
  const claimed = await stored(service, () =>
    service.store.update(ref, record.version, {
      state: ApprovalState.RUNNING,
      lease: { owner, until: now + service.leaseMs },
      updatedAt: now,
    }),
  )
  if (claimed === undefined) return 'again'
  const claim: HeldClaim = { ref, owner, record: claimed }
  return runClaimed(runtime, service, claim, data, call)
}

/**
 * A `running` record whose lease expired: its process died while the body ran. An idempotent
 * tool runs again; any other ends `OUTCOME_UNKNOWN`, stored, so no later resume runs it either.
 */
async function recover(
  resumption: Resumption,
  record: StoredRecord,
  data: ApprovalTicketData,
): Promise<ToolExecutionResult | 'again'> {
  const { runtime, service, ref, owner } = resumption
  const tool = runtime.registry.resolve(data.tool, data.agent === '' ? undefined : data.agent)
  if (tool?.definition.annotations?.idempotent === true) return claimAndRun(resumption, record, data)
  const result = failureOf(
    new OutcomeUnknownError(
      `the process running \`${data.tool}\` (approval ${ref.key}) stopped before it finished; whether the call took effect is unknown, and it is not run again because the tool is not annotated \`idempotent\``,
    ),
  )
  const claim: HeldClaim = { ref, owner, record }
  return (await stored(service, () => storeOutcome(service, claim, data, result))) ? result : 'again'
}

/**
 * Resume `ticket`: see {@link ResumeOptions}. Every outcome is a result, never a throw; `scope`
 * is the calling agent scope (a scope may resume only its own tickets).
 */
export async function resumeTicket(
  runtime: PipelineRuntime,
  service: DurableApprovalService,
  ticket: string,
  signal: AbortSignal,
  scope: string | undefined,
  fiber: object | undefined,
): Promise<ToolExecutionResult> {
  const agent = ticketAgent(ticket)
  if (agent === undefined)
    return failureOf(
      new ApprovalInvalidError(`not an approval ticket: ${JSON.stringify(String(ticket)).slice(0, 80)}`),
    )
  if (scope !== undefined && scope !== agent)
    return failureOf(
      new ApprovalInvalidError(`approval ${ticket} is not a ticket of agent scope \`${scope}\``),
    )
  const resumption: Resumption = {
    runtime,
    service,
    ref: { kind: 'approval', agent, key: ticket },
    owner: `${hostname()}/${process.pid}/${randomBytes(6).toString('hex')}`,
    signal,
    fiber,
  }
  try {
    for (let attempt = 0; ; attempt++) {
      if (signal.aborted)
        return failureOf(new AbortedBeforeDispatchError(`resume of approval ${ticket} aborted before it ran`))
      const answer = await step(resumption)
      if (answer === 'wait') {
        // Another process runs it: wait for its stored result, backing off, bounded by `signal`.
        await waitFor(Math.min(500, 10 * 2 ** Math.min(attempt, 6)), signal)
      } else if (answer !== 'again') return answer
    }
  } catch (error) {
    if (error instanceof StoreUnavailableError) return failureOf(error)
    throw error
  }
}

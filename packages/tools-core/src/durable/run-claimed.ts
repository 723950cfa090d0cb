/**
 * The exactly-once half of a resume: with the ticket claimed (`approved → running`, a lease in
 * this process's name), run the rest of the stage list from the guards, keep the lease alive
 * while the body runs, and store the final result (`running → done`). A later resume anywhere
 * reads that result back instead of running anything.
 */
import { publishResult } from '../pipeline/publish-result'
import { runStages, StageIndex } from '../pipeline/stage-list'
import type { PipelineRuntime, ToolCall } from '../pipeline/tool-call'
import type { StoredRecord, StoredRecordRef } from '../store/tool-state-store'
import type { ToolExecutionResult } from '../types'
import { ApprovalState, type ApprovalTicketData } from './approval-ticket'
import type { DurableApprovalService } from './durable-approval'
import { storedResult } from './stored-result'

/** A claim this process holds: the record as it last wrote it. */
export interface HeldClaim {
  readonly ref: StoredRecordRef
  readonly owner: string
  record: StoredRecord
}

/**
 * Renew the lease every third of `leaseMs` so a long body is not mistaken for a dead process.
 * Returns the stop function, which resolves once no renewal is in flight.
 */
function keepLease(service: DurableApprovalService, claim: HeldClaim, report: PipelineRuntime['report']) {
  let renewing: Promise<unknown> = Promise.resolve()
  let lost = false
  const timer = setInterval(
    () => {
      if (lost) return
      renewing = renewing.then(async () => {
        try {
          const now = Date.now()
          const renewed = await service.store.update(claim.ref, claim.record.version, {
            state: ApprovalState.RUNNING,
            lease: { owner: claim.owner, until: now + service.leaseMs },
            updatedAt: now,
          })
          if (renewed === undefined) {
            lost = true
            report(`approval ${claim.ref.key}: the claim was taken over while its body ran`, undefined)
          } else claim.record = renewed
        } catch (error) {
          report(`approval ${claim.ref.key}: renewing the lease failed`, error)
        }
      })
    },
    Math.max(1, Math.floor(service.leaseMs / 3)),
  )
  timer.unref?.()
  return async () => {
    clearInterval(timer)
    await renewing
  }
}

/** Store the final result (`running → done`), keeping it `retainMs` for later resumes. */
export async function storeOutcome(
  service: DurableApprovalService,
  claim: HeldClaim,
  data: ApprovalTicketData,
  result: ToolExecutionResult,
): Promise<boolean> {
  const now = Date.now()
  const done = await service.store.update(claim.ref, claim.record.version, {
    state: ApprovalState.DONE,
    data: JSON.stringify({ ...data, result: storedResult(result) }),
    lease: null,
    expiresAt: Math.max(claim.record.expiresAt, now + service.retainMs),
    updatedAt: now,
  })
  if (done === undefined) return false
  claim.record = done
  return true
}

/** Give a claim back (`running → approved`, no lease): the call did not start. */
async function release(service: DurableApprovalService, claim: HeldClaim): Promise<void> {
  await service.store.update(claim.ref, claim.record.version, {
    state: ApprovalState.APPROVED,
    lease: null,
    updatedAt: Date.now(),
  })
}

/** Run a claimed call from the guards to publication, then store its result. */
export async function runClaimed(
  runtime: PipelineRuntime,
  service: DurableApprovalService,
  claim: HeldClaim,
  data: ApprovalTicketData,
  call: ToolCall,
): Promise<ToolExecutionResult> {
  const stop = keepLease(service, claim, runtime.report)
  let result: ToolExecutionResult
  try {
    const lifetimes = runtime.lifetimes
    lifetimes?.add(call)
    const outcome = runStages(call, StageIndex.GUARDS, StageIndex.PUBLISH)
    // Publication is asynchronous too when a cut result's text goes to the store (§13.4).
    const published =
      outcome instanceof Promise ? outcome.then(() => publishResult(call)) : publishResult(call)
    if (!(published instanceof Promise)) {
      lifetimes?.delete(call)
      result = published
    } else {
      result = await (lifetimes === undefined ? published : lifetimes.follow(call, published))
    }
  } finally {
    await stop()
  }
  try {
    // Aborted before its body started: nothing happened, so the ticket goes back to `approved`
    // for a later resume instead of storing an abort as its final outcome.
    if (!call.bodyStarted && result.isError && result.error.info?.code === 'ABORTED_BEFORE_DISPATCH') {
      await release(service, claim)
      return result
    }
    if (!(await storeOutcome(service, claim, data, result)))
      runtime.report(
        `approval ${claim.ref.key}: another process took the claim over; its result was not stored`,
        undefined,
      )
  } catch (error) {
    // The body ran: the caller gets its result. The record stays `running`; once its lease
    // expires, recovery applies (`OUTCOME_UNKNOWN`, or a rerun of an idempotent tool).
    runtime.report(`approval ${claim.ref.key}: storing the result failed`, error)
  }
  return result
}

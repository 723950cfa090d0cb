/**
 * Suspend a run (SPEC §13.3): write its record — program, tool fingerprints, ledger, reads — to
 * the store (a new record, or the resumed one written back to `suspended` under the same
 * ticket), then end `run_code` as `APPROVAL_PENDING` naming the run's ticket and every approval
 * asked inside the program.
 */
import {
  ApprovalPendingError,
  StoreUnavailableError,
  sha256Hex,
  type ToolNestedApproval,
  type ToolRunContext,
  toolFingerprint,
} from '@dsh/tools-core'
import { bindingNames } from '../bridge'
import type { ToolRuntimePort } from '../bridge-ports'
import type { DurableRuns, ReplayPlan } from './durable-runs'
import type { RunJournal } from './run-journal'
import { type RunRecordData, RunState } from './run-record'
import { mintRunTicket } from './run-ticket'

/** The program, as `run_code` got it. */
export interface RunProgram {
  readonly code: string
  readonly description: string
}

function fingerprints(tools: ToolRuntimePort, agent: string | undefined): Record<string, string> {
  const found: Record<string, string> = {}
  for (const name of bindingNames(tools, agent)) {
    const definition = tools.get?.(name, agent)
    // Defined, not assigned: a tool named `__proto__` would otherwise leave no fingerprint.
    if (definition !== undefined)
      Object.defineProperty(found, name, {
        value: toolFingerprint(definition),
        enumerable: true,
        writable: true,
        configurable: true,
      })
  }
  return found
}

function pendingMessage(
  ticket: string,
  asked: readonly ToolNestedApproval[],
  logs: readonly string[],
): string {
  const calls = asked
    .map((approval) => `\`${approval.tool}\`${approval.reason ? ` (${approval.reason})` : ''}`)
    .join(', ')
  const head =
    `run_code is waiting for a person's approval of ${asked.length === 1 ? 'a call' : `${asked.length} calls`} ` +
    `inside the program: ${calls}; run ticket ${ticket}. The program stopped there. Do not run it again: ` +
    'it continues once the approvals are decided.'
  return logs.length > 0 ? `${head}\nCaptured output:\n${logs.join('\n')}` : head
}

async function stored<T>(label: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation()
  } catch (error) {
    throw new StoreUnavailableError(
      `tool state store ${label}: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    )
  }
}

/**
 * Record the suspended run and throw its `APPROVAL_PENDING` error. `logs` are every line the
 * program printed; the pending message shows those a previous suspension did not.
 */
export async function suspendRun(
  durable: DurableRuns,
  tools: ToolRuntimePort,
  exec: ToolRunContext,
  program: RunProgram,
  journal: RunJournal,
  logs: readonly string[],
  plan: ReplayPlan | undefined,
): Promise<never> {
  const store = durable.store()
  if (store === undefined)
    throw new StoreUnavailableError('the tool state store went away while the run suspended')
  const agent = exec.agent ?? ''
  const ticket = plan?.data.ticket ?? mintRunTicket(agent)
  const asked = journal.asked
  const now = Date.now()
  const data: RunRecordData = {
    v: 1,
    ticket,
    agent,
    callId: plan?.data.callId ?? exec.callId,
    language: durable.language,
    code: program.code,
    codeHash: sha256Hex(program.code),
    description: program.description,
    fingerprints: fingerprints(tools, exec.agent),
    ledger: journal.ledger(),
    reads: journal.reads(),
    logLines: logs.length,
    approvals: asked,
  }
  const expiresAt = Math.max(now, ...asked.map((approval) => approval.expiresAt)) + durable.retainMs()
  const text = JSON.stringify(data)
  if (plan === undefined) {
    const created = await stored(store.label, () =>
      store.create({
        kind: 'run',
        agent,
        key: ticket,
        state: RunState.SUSPENDED,
        data: text,
        createdAt: now,
        expiresAt,
      }),
    )
    if (created === undefined) throw new StoreUnavailableError(`run ticket ${ticket} exists already`)
  } else {
    const written = await stored(store.label, () =>
      store.update(plan.ref, plan.record.version, {
        state: RunState.SUSPENDED,
        data: text,
        lease: null,
        expiresAt,
        updatedAt: now,
      }),
    )
    if (written === undefined)
      throw new StoreUnavailableError(`run ${ticket}: another process took the run over while it ran`)
    plan.record = written
    plan.resuspended = true
  }
  throw new ApprovalPendingError(pendingMessage(ticket, asked, logs.slice(journal.shownLogLines)), {
    pending: {
      ticket,
      tool: 'run_code',
      agent,
      reason: `${asked.length} approval${asked.length === 1 ? '' : 's'} inside the program`,
      expiresAt: Math.min(...asked.map((approval) => approval.expiresAt)),
      approvals: asked,
    },
  })
}

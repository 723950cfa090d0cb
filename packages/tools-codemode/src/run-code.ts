/**
 * The `run_code` body: run the program through the bridge and map the runtime's outcome to
 * the canonical value or a `CodeRunFailedError` — or, when a sub-call asked for approval, to
 * the run's suspension (SPEC §13.3).
 */
import { ToolAbortedError, type ToolRunContext } from '@dsh/tools-core'
import { type BridgeEnvironment, runThroughBridge } from './bridge'
import type { DurableRuns } from './durable/durable-runs'
import { RunJournal } from './durable/run-journal'
import { suspendRun } from './durable/suspend-run'
import { CodeRunFailedError } from './errors'
import type { RunCodeOutput } from './render-output'
import type { RunCodeArgs } from './transport'

/**
 * Execute one `run_code` call. Resolves to `{ logs, result? }`; throws `ToolAbortedError` (code
 * `ABORTED`, as tools-core ends any aborted call) when the run was stopped from outside — the
 * call's signal, or the disposal of the code runtime or this plugin — `CodeRunFailedError`
 * (code `CODE_RUN_FAILED`) when the program failed or diverged from its ledger on replay, and
 * `ApprovalPendingError` (with `pending`) when it suspended. The bridge has settled either way.
 */
export async function executeRunCode(
  env: BridgeEnvironment & { readonly durable?: DurableRuns },
  args: RunCodeArgs,
  exec: ToolRunContext,
): Promise<RunCodeOutput> {
  const durable = env.durable
  const plan = durable?.replays.get(exec.callId)
  if (plan !== undefined) plan.started = true
  // A run is recorded only while a store is loaded: only then can a sub-call suspend it.
  const journal = durable?.store() === undefined ? undefined : new RunJournal(plan?.data)
  const outcome = await runThroughBridge(env, exec, args.code, args.description, journal)
  const stop = journal?.stop
  if (stop?.kind === 'suspend')
    return suspendRun(durable!, env.tools, exec, args, journal!, outcome.logs, plan)
  // Lines the program printed before an earlier suspension were shown then: not repeated.
  const shown = journal?.shownLogLines ?? 0
  const logs = shown === 0 ? outcome.logs : outcome.logs.slice(shown)
  if (stop?.kind === 'diverged') throw new CodeRunFailedError('exception', stop.message, logs)
  if (!outcome.ok && outcome.kind === 'abort') throw new ToolAbortedError(abortMessage(outcome.message, logs))
  if (!outcome.ok) throw new CodeRunFailedError(outcome.kind, outcome.message, logs)
  return outcome.result === undefined ? { logs } : { logs, result: outcome.result }
}

/** `code run aborted: <why>`, then the lines the program printed before it stopped. */
function abortMessage(message: string, logs: readonly string[]): string {
  const head = `code run aborted: ${message}`
  return logs.length > 0 ? `${head}\nCaptured output:\n${logs.join('\n')}` : head
}

/**
 * The `run_code` body: run the program through the bridge and map the runtime's outcome to
 * the canonical value or a `CodeRunFailedError`.
 */
import { ToolAbortedError, type ToolRunContext } from '@dsh/tools-core'
import { type BridgeEnvironment, runThroughBridge } from './bridge'
import { CodeRunFailedError } from './errors'
import type { RunCodeOutput } from './render-output'
import type { RunCodeArgs } from './transport'

/**
 * Execute one `run_code` call. Resolves to `{ logs, result? }`; throws `ToolAbortedError` (code
 * `ABORTED`, as tools-core ends any aborted call) when the run was stopped from outside — the
 * call's signal, or the disposal of the code runtime or this plugin — and `CodeRunFailedError`
 * (code `CODE_RUN_FAILED`) when the program failed. The bridge has settled either way.
 */
export async function executeRunCode(
  env: BridgeEnvironment,
  args: RunCodeArgs,
  exec: ToolRunContext,
): Promise<RunCodeOutput> {
  const outcome = await runThroughBridge(env, exec, args.code, args.description)
  if (!outcome.ok && outcome.kind === 'abort') throw new ToolAbortedError(abortMessage(outcome))
  if (!outcome.ok) throw new CodeRunFailedError(outcome.kind, outcome.message, outcome.logs)
  return outcome.result === undefined
    ? { logs: outcome.logs }
    : { logs: outcome.logs, result: outcome.result }
}

/** `code run aborted: <why>`, then the lines the program printed before it stopped. */
function abortMessage(outcome: { readonly message: string; readonly logs: readonly string[] }): string {
  const head = `code run aborted: ${outcome.message}`
  return outcome.logs.length > 0 ? `${head}\nCaptured output:\n${outcome.logs.join('\n')}` : head
}

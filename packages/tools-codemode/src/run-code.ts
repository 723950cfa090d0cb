/**
 * The `run_code` body: run the program through the bridge and map the runtime's outcome to
 * the canonical value or a `CodeRunFailedError`.
 */
import type { ToolRunContext } from '@dsh/tools-core'
import { type BridgeEnvironment, runThroughBridge } from './bridge'
import { CodeRunFailedError } from './errors'
import type { RunCodeOutput } from './render-output'
import type { RunCodeArgs } from './transport'

/**
 * Execute one `run_code` call. Resolves to `{ logs, result? }`; throws `CodeRunFailedError`
 * (code `CODE_RUN_FAILED`) when the program failed. The bridge has settled either way.
 */
export async function executeRunCode(
  env: BridgeEnvironment,
  args: RunCodeArgs,
  exec: ToolRunContext,
): Promise<RunCodeOutput> {
  const outcome = await runThroughBridge(env, exec, args.code, args.description)
  if (!outcome.ok) throw new CodeRunFailedError(outcome.kind, outcome.message, outcome.logs)
  return outcome.result === undefined
    ? { logs: outcome.logs }
    : { logs: outcome.logs, result: outcome.result }
}

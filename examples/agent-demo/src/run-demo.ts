/**
 * One demo run: a fresh workspace, a fresh toolkit in `mode`, the agent loop with a model
 * (the scripted one unless given), then an independent test-suite check that decides success.
 */
import type { ToolPresentationMode } from '@dsh/tools-core'
import { type AgentLoopOutcome, type LoopEvent, runAgentLoop } from './agent-loop'
import type { CardStyle } from './cards'
import type { Model } from './model'
import type { PolicyLog } from './policy'
import { createPrinter } from './printer'
import { DEMO_PROVIDERS, type DemoProvider } from './provider-table'
import { startDemoRuntime } from './runtime'
import { ScriptedModel } from './scripted-model'
import { type CodeLanguage, codeModeScript, INSTRUCTIONS, nativeScript, TASK } from './task'
import type { TimingRecorder } from './timing'
import { checkTestSuite, createWorkspace, removeWorkspace, type SuiteCheck } from './workspace'

/** Options of {@link runDemo}. */
export interface RunDemoOptions {
  readonly mode: ToolPresentationMode
  /** The language of Code Mode programs (default `typescript`). */
  readonly lang?: CodeLanguage
  /** Defaults to the scripted model for the mode. */
  readonly model?: Model
  /**
   * A `--provider` name (`DEMO_PROVIDERS`): the model's turns travel through that stack — a
   * provider's wire format through `@dsh/tools-providers`, or the AI SDK. Absent: the demo's
   * own chat shape.
   */
  readonly provider?: string
  /** A live model (`--openai`) and the loop that talks to it, used instead of the scripted model. */
  readonly live?: { readonly model: string; readonly loop: DemoProvider['loop'] }
  /** Where printed lines go (default: nowhere). */
  readonly write?: (line: string) => void
  readonly style?: Partial<CardStyle>
  /** Keep the temp workspace (its path is in the result). */
  readonly keepWorkspace?: boolean
}

/** Everything a run produced. */
export interface DemoRunResult {
  readonly mode: ToolPresentationMode
  readonly model: string
  readonly workspace: string
  readonly events: readonly LoopEvent[]
  readonly outcome: AgentLoopOutcome
  readonly policyLog: PolicyLog
  readonly timing: TimingRecorder
  readonly before: SuiteCheck
  readonly after: SuiteCheck
  readonly wallMs: number
}

/** The scripted model that answers the task in `mode` (Code Mode programs in `lang`). */
export function scriptedModelFor(mode: ToolPresentationMode, lang: CodeLanguage = 'typescript'): Model {
  return mode === 'code'
    ? new ScriptedModel(
        lang === 'python' ? 'scripted (Code Mode, Python)' : 'scripted (Code Mode)',
        codeModeScript(lang),
      )
    : new ScriptedModel('scripted (native)', nativeScript())
}

/** Run the task once in `mode`. */
export async function runDemo(options: RunDemoOptions): Promise<DemoRunResult> {
  const write = options.write ?? (() => {})
  const model = options.model ?? scriptedModelFor(options.mode, options.lang)
  const provider = options.provider === undefined ? undefined : DEMO_PROVIDERS[options.provider]
  if (
    options.provider !== undefined &&
    (provider === undefined || !Object.hasOwn(DEMO_PROVIDERS, options.provider))
  ) {
    throw new Error(
      `unknown provider \`${options.provider}\` (expected ${Object.keys(DEMO_PROVIDERS).join(', ')})`,
    )
  }
  const loop = options.live?.loop ?? provider?.loop ?? runAgentLoop
  const workspace = await createWorkspace(options.mode)
  try {
    const before = await checkTestSuite(workspace)
    const runtime = await startDemoRuntime(options.mode, workspace, options.lang)
    const events: LoopEvent[] = []
    const style: CardStyle = { color: false, maxLines: 14, ...options.style, workspace }
    const print = createPrinter(write, style, runtime.policyLog)
    const started = performance.now()
    let outcome: AgentLoopOutcome
    try {
      outcome = await loop({
        ctx: runtime.ctx,
        model,
        task: TASK,
        instructions: INSTRUCTIONS,
        agent: runtime.agent,
        signal: AbortSignal.timeout(300_000),
        report: (event) => {
          events.push(event)
          print(event)
        },
      })
    } finally {
      await runtime.dispose()
    }
    const wallMs = performance.now() - started
    const after = await checkTestSuite(workspace)
    return {
      mode: options.mode,
      model:
        options.live?.model ??
        (provider === undefined ? model.name : `${model.name} via ${options.provider}`),
      workspace,
      events,
      outcome,
      policyLog: runtime.policyLog,
      timing: runtime.timing,
      before,
      after,
      wallMs,
    }
  } finally {
    if (!options.keepWorkspace) await removeWorkspace(workspace)
  }
}

/**
 * `--provider <name>`: the agent loops that run the same task through another stack's wire
 * format. Each entry takes the options of `runAgentLoop` and returns its outcome.
 */
import type { AgentLoopOptions, AgentLoopOutcome } from './agent-loop'
import { runAiSdkLoop } from './ai-sdk-loop'

export const PROVIDER_LOOPS: Readonly<
  Record<string, (options: AgentLoopOptions) => Promise<AgentLoopOutcome>>
> = Object.freeze({
  'ai-sdk': runAiSdkLoop,
})

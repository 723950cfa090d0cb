/**
 * A resumed run's sub-call answered from its ledger (SPEC §13.3): a recorded value or error at
 * once; a call that waited for approval by resuming its approval ticket — the call runs for real
 * exactly once, in whichever process resumes it first; a divergence stops the program.
 */
import type { JsonValue, ToolExecutionResult } from '@dsh/tools-core'
import type { ToolRuntimePort } from '../bridge-ports'
import { ToolCallError } from '../errors'
import type { ReplayAnswer, RunJournal } from './run-journal'

/** What answering a call needs from its bridge. */
export interface LedgerAnswerContext {
  readonly tools: ToolRuntimePort
  readonly journal: RunJournal
  /** The sub-calls' signal (aborts when the run settles). */
  readonly signal: AbortSignal
  /** Stop the program now (it diverged). */
  stop(reason: string): void
  /** A resumed approval is still undecided: the run suspends again. */
  suspend(): void
  /** An approval's resume in flight: the run's drain waits for it like for a started call. */
  track(resume: Promise<unknown>): void
}

/** The program's promise for call `n` the ledger answers with `answer`. */
export function answerFromLedger(
  context: LedgerAnswerContext,
  n: number,
  name: string,
  answer: ReplayAnswer,
): Promise<JsonValue> {
  switch (answer.kind) {
    case 'value':
      return Promise.resolve(answer.value)
    case 'error':
      return Promise.reject(new ToolCallError(name, answer.message))
    case 'diverged':
      context.stop(answer.message)
      return Promise.reject(new ToolCallError(name, answer.message))
    case 'resume':
      return resumeApproval(context, n, name, answer.ticket)
  }
}

async function resumeApproval(
  context: LedgerAnswerContext,
  n: number,
  name: string,
  ticket: string,
): Promise<JsonValue> {
  const { tools } = context
  let result: ToolExecutionResult
  if (tools.resume === undefined)
    result = { isError: true, error: { message: 'the tool runtime cannot resume approvals' }, content: [] }
  else {
    const resumed = tools.resume(ticket, { signal: context.signal })
    context.track(resumed)
    result = await resumed
  }
  if (context.journal.settled(n, result)) {
    // Still undecided: the run suspends again; the program never sees this call settle.
    context.suspend()
    return new Promise<never>(() => {})
  }
  if (!result.isError) return result.value as JsonValue
  // A denial names itself, so a program can tell it from a failure of the tool.
  const denied = result.error.info?.code === 'DENIED'
  throw new ToolCallError(name, denied ? `DENIED: ${result.error.message}` : result.error.message)
}

/**
 * The end of a demo run: the timing timeline per run and the one-line summary per run. Both
 * count calls with {@link callCounts}, so the timeline and the summary always agree.
 */
import type { DemoRunResult } from './run-demo'
import { renderTimeline } from './timing'

/** How many calls a run made, from the loop's call events (denied ones included). */
export interface CallCounts {
  /** Calls the model made directly. */
  readonly top: number
  /** Code Mode sub-calls (`tools.*` inside `run_code`). */
  readonly sub: number
  /** Ids of calls the policy refused: they never reached a tool body, so they have no bar. */
  readonly refused: readonly string[]
}

/** Count the calls of `run`. */
export function callCounts(run: DemoRunResult): CallCounts {
  const calls = run.events.filter((event) => event.type === 'call')
  const refused = new Set(
    run.policyLog.filter((d) => d.verdict === 'deny' || d.verdict === 'denied').map((d) => d.callId),
  )
  return {
    top: calls.filter((call) => call.parentCallId === undefined).length,
    sub: calls.filter((call) => call.parentCallId !== undefined).length,
    refused: [...refused],
  }
}

function callsText(counts: CallCounts): string {
  return `${counts.top} call(s)${counts.sub > 0 ? ` + ${counts.sub} sub-call(s)` : ''}`
}

/** A section heading: a blank line, then the title padded with a rule. */
export function heading(text: string): string[] {
  return ['', `━━ ${text} ${'━'.repeat(Math.max(0, 76 - text.length))}`]
}

/** The timing section of one run: a bar per dispatched call, then the totals. */
export function timingLines(run: DemoRunResult): string[] {
  const counts = callCounts(run)
  const top = run.timing.calls.filter((call) => !call.nested)
  const body = top.reduce((sum, call) => sum + (call.end - call.start), 0)
  const out = [
    ...heading(`timing — ${run.mode}`),
    ...renderTimeline(run.timing.calls).map((line) => `  ${line}`),
  ]
  if (counts.refused.length > 0)
    out.push(`  (${counts.refused.join(', ')} denied by policy: never dispatched, so no bar)`)
  out.push(
    `  ${callsText(counts)}; ${body.toFixed(0)} ms of tool time in ${run.wallMs.toFixed(0)} ms of loop time; ` +
      `at most ${run.timing.maxOverlap((call) => call.nested === (run.mode === 'code'))} tool bodies overlapped`,
  )
  return out
}

/** The summary section: one line per run. */
export function summaryLines(runs: readonly DemoRunResult[]): string[] {
  const out = heading('summary')
  for (const run of runs) {
    const counts = callCounts(run)
    out.push(
      `  ${run.after.passed ? '✓' : '✗'} ${run.mode.padEnd(6)} ${run.model.padEnd(22)} ` +
        `${String(run.outcome.turns).padStart(2)} turns, ${callsText(counts)}, ` +
        `${counts.refused.length} policy denial(s), ${run.wallMs.toFixed(0)} ms — tests ${run.before.summary} → ${run.after.summary}`,
    )
  }
  return out
}

/**
 * `pnpm demo`: the agent fixes a bug in a temp copy of a small project, first with native
 * function calling (batches through `executeBatch`), then in Code Mode (one `run_code`
 * program). Prints each call as its card, the policy decisions and a timing summary; exits 0
 * only when the project's tests pass after every run.
 *
 *   node --import tsx examples/agent-demo/src/main.ts [--mode native|code|both|all] [--openai] [--no-color] [--keep]
 *
 * `--openai` drives the loop with a real OpenAI-compatible endpoint instead of the script
 * (needs OPENAI_API_KEY, OPENAI_BASE_URL and optionally OPENAI_MODEL).
 */
import type { ToolPresentationMode } from '@dsh/tools-core'
import type { Model } from './model'
import { OpenAIChatModel } from './openai-model'
import { type DemoRunResult, runDemo } from './run-demo'
import { renderTimeline } from './timing'

interface Options {
  readonly modes: ToolPresentationMode[]
  readonly openai: boolean
  readonly color: boolean
  readonly keep: boolean
}

function parseOptions(argv: readonly string[]): Options {
  const mode = argv.includes('--mode') ? argv[argv.indexOf('--mode') + 1] : 'all'
  const modes: ToolPresentationMode[] =
    mode === 'native' || mode === 'code' || mode === 'both'
      ? [mode]
      : mode === 'all'
        ? ['native', 'code']
        : []
  if (modes.length === 0) throw new Error(`--mode must be native, code, both or all (got ${mode})`)
  return {
    modes,
    openai: argv.includes('--openai'),
    color: !argv.includes('--no-color') && process.stdout.isTTY === true && !process.env['NO_COLOR'],
    keep: argv.includes('--keep'),
  }
}

const write = (line: string) => process.stdout.write(`${line}\n`)

function heading(text: string) {
  write('')
  write(`━━ ${text} ${'━'.repeat(Math.max(0, 76 - text.length))}`)
}

function printTiming(run: DemoRunResult) {
  const calls = run.timing.calls
  const top = calls.filter((call) => !call.nested)
  const nested = calls.filter((call) => call.nested)
  const body = top.reduce((sum, call) => sum + (call.end - call.start), 0)
  heading(`timing — ${run.mode}`)
  for (const line of renderTimeline(calls)) write(`  ${line}`)
  const refused = [
    ...new Set(
      run.policyLog.filter((d) => d.verdict === 'deny' || d.verdict === 'denied').map((d) => d.callId),
    ),
  ]
  if (refused.length > 0) write(`  (${refused.join(', ')} denied by policy: never dispatched, so no bar)`)
  write(
    `  ${top.length} top-level call(s)${nested.length ? `, ${nested.length} Code Mode sub-call(s)` : ''}; ` +
      `${body.toFixed(0)} ms of tool time in ${run.wallMs.toFixed(0)} ms of loop time; ` +
      `at most ${run.timing.maxOverlap((call) => call.nested === (run.mode === 'code'))} tool bodies overlapped`,
  )
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2))
  let model: Model | undefined
  if (options.openai) {
    model = OpenAIChatModel.fromEnvironment()
    if (!model) throw new Error('--openai needs OPENAI_API_KEY and OPENAI_BASE_URL in the environment')
  }
  write(
    'dsh-tools agent demo — fix an off-by-one bug in a temp copy of examples/agent-demo/fixture/mini-pager',
  )
  const runs: DemoRunResult[] = []
  for (const mode of options.modes) {
    heading(`${mode === 'native' ? 'native function calling (executeBatch)' : `mode ${mode} (run_code)`}`)
    const run = await runDemo({
      mode,
      ...(model ? { model } : {}),
      write,
      style: { color: options.color },
      keepWorkspace: options.keep,
    })
    runs.push(run)
    write('')
    write(
      `tests before: ${run.before.summary}; after: ${run.after.summary}${options.keep ? `  (kept ${run.workspace})` : ''}`,
    )
  }
  for (const run of runs) printTiming(run)
  heading('summary')
  for (const run of runs) {
    const calls = run.events.filter((event) => event.type === 'call')
    const top = calls.filter((event) => event.parentCallId === undefined).length
    const denials = run.policyLog.filter(
      (decision) => decision.verdict === 'deny' || decision.verdict === 'denied',
    ).length
    write(
      `  ${run.after.passed ? '✓' : '✗'} ${run.mode.padEnd(6)} ${run.model.padEnd(22)} ` +
        `${String(run.outcome.turns).padStart(2)} turns, ${top} call(s)${calls.length > top ? ` + ${calls.length - top} sub-calls` : ''}, ` +
        `${denials} policy denial(s), ${run.wallMs.toFixed(0)} ms — tests ${run.before.summary} → ${run.after.summary}`,
    )
  }
  const ok = runs.every((run) => run.after.passed)
  write('')
  write(
    ok
      ? 'demo passed: the fixture’s tests pass after every run'
      : 'demo FAILED: the fixture’s tests still fail',
  )
  return ok ? 0 : 1
}

main().then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    console.error(error)
    process.exitCode = 1
  },
)

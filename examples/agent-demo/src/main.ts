/**
 * `pnpm demo`: the agent fixes a bug in a temp copy of a small project, first with native
 * function calling (batches through `executeBatch`), then in Code Mode (one `run_code`
 * program). Prints each call as its card, the policy decisions and a timing summary; exits 0
 * only when the project's tests pass after every run, 1 when they do not (or the run broke),
 * 2 on a usage error. Errors are one line on stderr (`DEBUG=1` adds the stack).
 *
 *   node --import tsx examples/agent-demo/src/main.ts [--mode native|code|both|all] [--lang typescript|python] [--openai | --provider openai-chat|openai-responses|anthropic|gemini|ai-sdk] [--no-color] [--keep] [--help]
 */
import { parseDemoOptions, USAGE, UsageError } from './cli-options'
import type { DemoRunResult } from './run-demo'

const write = (line: string) => process.stdout.write(`${line}\n`)

async function main(): Promise<number> {
  const options = parseDemoOptions(process.argv.slice(2))
  if (options.help) {
    write(USAGE)
    return 0
  }
  // the toolkit loads only once the command line is known to be good: --help and usage errors
  // answer at once
  const { OpenAIChatModel } = await import('./openai-model')
  const { runDemo } = await import('./run-demo')
  const { heading, summaryLines, timingLines } = await import('./report')
  const model = options.openai ? OpenAIChatModel.fromEnvironment() : undefined
  if (options.openai && !model)
    throw new UsageError('--openai needs OPENAI_API_KEY and OPENAI_BASE_URL in the environment')
  write(
    'dsh-tools agent demo — fix an off-by-one bug in a temp copy of examples/agent-demo/fixture/mini-pager',
  )
  const runs: DemoRunResult[] = []
  for (const mode of options.modes) {
    const title =
      mode === 'native'
        ? 'native function calling (executeBatch)'
        : `mode ${mode} (run_code, ${options.lang === 'python' ? 'Python on Pyodide' : 'TypeScript'})`
    const via = options.provider === undefined ? '' : ` — through --provider ${options.provider}`
    for (const line of heading(`${title}${via}`)) write(line)
    const run = await runDemo({
      mode,
      lang: options.lang,
      ...(model ? { live: { model: model.name, loop: model.loop } } : {}),
      write,
      style: { color: options.color },
      keepWorkspace: options.keep,
      ...(options.provider === undefined ? {} : { provider: options.provider }),
    })
    runs.push(run)
    write('')
    write(
      `tests before: ${run.before.summary}; after: ${run.after.summary}${options.keep ? `  (kept ${run.workspace})` : ''}`,
    )
  }
  for (const run of runs) for (const line of timingLines(run)) write(line)
  for (const line of summaryLines(runs)) write(line)
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
    const message = error instanceof Error ? error.message : String(error)
    process.stderr.write(`agent-demo: ${message}${error instanceof UsageError ? ' (see --help)' : ''}\n`)
    if (process.env['DEBUG'] && error instanceof Error && error.stack)
      process.stderr.write(`${error.stack}\n`)
    process.exitCode = error instanceof UsageError ? 2 : 1
  },
)

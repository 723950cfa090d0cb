/**
 * The demo command once its flags are parsed: each run under its heading, then the timing and
 * the summary of every run and the verdict line, all through `write`. `main.ts` wires it to the
 * process (stdout, the exit code, one-line errors); tests run it in-process.
 */
import { type DemoOptions, UsageError } from './cli-options'
import type { DemoRunResult } from './run-demo'

/** What {@link runDemoCommand} did: its exit code and every run, in order. */
export interface DemoCommandResult {
  /** 0 when the fixture's tests pass after every run, else 1. */
  readonly exitCode: number
  readonly runs: readonly DemoRunResult[]
}

/**
 * Run the demo `options` ask for (not `--help`, which `main.ts` answers), printing through
 * `write`.
 *
 * @throws {UsageError} on `--openai` without OPENAI_API_KEY and OPENAI_BASE_URL in `env`.
 */
export async function runDemoCommand(
  options: DemoOptions,
  write: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<DemoCommandResult> {
  // the toolkit loads only once the command line is known to be good: --help and usage errors
  // answer at once
  const { OpenAIChatModel } = await import('./openai-model')
  const model = options.openai ? OpenAIChatModel.fromEnvironment(env) : undefined
  if (options.openai && !model)
    throw new UsageError('--openai needs OPENAI_API_KEY and OPENAI_BASE_URL in the environment')
  const { runDemo } = await import('./run-demo')
  const { heading, summaryLines, timingLines } = await import('./report')
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
  return { exitCode: ok ? 0 : 1, runs }
}

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
import { runDemoCommand } from './demo-command'

const write = (line: string) => process.stdout.write(`${line}\n`)

async function main(): Promise<number> {
  const options = parseDemoOptions(process.argv.slice(2))
  if (options.help) {
    write(USAGE)
    return 0
  }
  return (await runDemoCommand(options, write)).exitCode
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

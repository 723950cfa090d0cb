// The demo as a user runs it: `src/main.ts` in a child process (against the sources, like the
// rest of the suite) for flag handling, exit codes and one-line errors. The printed output of a
// whole run is checked in demo.spec.ts, from the same command in-process (`runDemoCommand`).
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { parseDemoOptions, USAGE, UsageError } from '../src/cli-options'
import { OpenAIChatModel } from '../src/openai-model'

const run = promisify(execFile)
const here = fileURLToPath(new URL('..', import.meta.url))

interface Outcome {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

async function demo(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Outcome> {
  const clean = { ...process.env, OPENAI_API_KEY: '', OPENAI_BASE_URL: '', DEBUG: '', ...env }
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--conditions=@dsh/source', '--import', 'tsx', 'src/main.ts', ...args],
      { cwd: here, env: clean, timeout: 240_000 },
    )
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string }
    if (typeof failed.code !== 'number') throw error
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' }
  }
}

const STACK_FRAME = /^\s+at /m

// Each case here that spawns the demo pays a tsx boot: one child per exit path (0, 2, 1) shows
// the process wiring, and the parser's other answers are checked in-process. The children run
// concurrently; they mostly wait on module loading.
describe('demo command line', { concurrent: true }, () => {
  it('--help prints the usage and exits 0 without running anything; -h is the same flag', async () => {
    const outcome = await demo(['--', '--help'])
    expect(outcome.code).toBe(0)
    expect(outcome.stdout).toMatch(/^Usage: pnpm demo/)
    expect(outcome.stdout).toContain('--mode <mode>')
    expect(outcome.stdout).toContain('--lang <lang>')
    expect(outcome.stdout).not.toContain('prompt assembly')
    expect(outcome.stdout).toBe(`${USAGE}\n`)
    expect(parseDemoOptions(['--', '-h']).help).toBe(true)
    expect(parseDemoOptions(['--provider', 'gemini']).provider).toBe('gemini')
  }, 60_000)

  it('a bad command line prints one line and exits 2', async () => {
    const outcome = await demo(['--bogus'])
    expect(outcome.code).toBe(2)
    expect(outcome.stdout).toBe('')
    expect(outcome.stderr.trimEnd().split('\n')).toHaveLength(1)
    expect(outcome.stderr).toMatch(/Unknown option '--bogus'/)
    expect(outcome.stderr).toMatch(/^agent-demo: .*\(see --help\)\n$/)
    expect(outcome.stderr).not.toMatch(STACK_FRAME)
  }, 60_000)

  it.each([
    [['--bogus'], /Unknown option '--bogus'/],
    [['--mode', 'weird'], /--mode must be native, code, both or all \(got 'weird'\)/],
    [['--lang', 'ruby'], /--lang must be typescript or python \(got 'ruby'\)/],
    [['stray'], /positional argument/i],
    [
      ['--provider', 'cohere'],
      /--provider must be openai-chat, openai-responses, anthropic, gemini or ai-sdk \(got 'cohere'\)/,
    ],
    [['--provider', 'anthropic', '--openai'], /does not combine with --openai/],
  ])('a bad command line %j is a one-line UsageError', (args, message) => {
    let error: unknown
    try {
      parseDemoOptions(args)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(UsageError)
    expect((error as Error).message).toMatch(message)
    expect((error as Error).message).not.toContain('\n')
  })

  it('--openai without OPENAI_API_KEY prints one line and exits 2', async () => {
    const outcome = await demo(['--openai'])
    expect(outcome.code).toBe(2)
    expect(outcome.stderr).toBe(
      'agent-demo: --openai needs OPENAI_API_KEY and OPENAI_BASE_URL in the environment (see --help)\n',
    )
    expect(outcome.stdout).toBe('')
    // a base URL alone is not enough either
    expect(OpenAIChatModel.fromEnvironment({ OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' })).toBeUndefined()
  }, 60_000)

  it('a failure while running is one line too (the endpoint is unreachable)', async () => {
    const outcome = await demo(['--openai', '--mode', 'native'], {
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', // discard port: the connection is refused
    })
    expect(outcome.code).toBe(1)
    expect(outcome.stderr).toMatch(/^agent-demo: [^\n]+\n$/)
    expect(outcome.stderr).not.toMatch(STACK_FRAME)
  }, 60_000)
})

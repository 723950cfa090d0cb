// The demo as a user runs it: `src/main.ts` in a child process (against the sources, like the
// rest of the suite) for flag handling, exit codes and one-line errors; the printed output of a
// whole run from the same command in-process (`runDemoCommand`, which `main.ts` calls).
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { parseDemoOptions, USAGE, UsageError } from '../src/cli-options'
import { runDemoCommand } from '../src/demo-command'
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

describe('demo output', () => {
  let lines: string[] = []
  beforeAll(async () => {
    // The whole default run (native, then Code Mode) in this process: a child would pay another
    // tsx boot and toolkit load for output the command writes through `write` either way. Any
    // other write — to stdout or stderr, from this thread or a worker's piped stdio, or through
    // the console — is a stray line a user would see, and fails the run as it did in a child.
    const stray: string[] = []
    const spies = [
      ...(['stdout', 'stderr'] as const).map((name) =>
        vi.spyOn(process[name], 'write').mockImplementation((chunk: string | Uint8Array) => {
          stray.push(`${name}: ${String(chunk)}`)
          return true
        }),
      ),
      ...(['log', 'info', 'warn', 'error', 'debug'] as const).map((name) =>
        vi.spyOn(console, name).mockImplementation((...args: unknown[]) => {
          stray.push(`console.${name}: ${args.join(' ')}`)
        }),
      ),
    ]
    let code: number
    try {
      const env = { ...process.env, OPENAI_API_KEY: '', OPENAI_BASE_URL: '' }
      code = await runDemoCommand(
        parseDemoOptions(['--no-color'], env, false),
        (line) => lines.push(line),
        env,
      )
    } finally {
      for (const spy of spies) spy.mockRestore()
    }
    expect(stray).toEqual([])
    expect(code).toBe(0)
    // the child's stdout ended with a newline: the same split as before
    lines = `${lines.join('\n')}\n`.split('\n')
  }, 240_000)

  it("a call's policy decisions print right under its call card, before its sub-calls and result", () => {
    const runCode = lines.findIndex((line) => line.startsWith('┌ [c1] ▸ run_code'))
    const firstSub = lines.findIndex((line) => line.includes('[code:1]'))
    const gate = lines.findIndex((line) => line.startsWith('⚖ pre-execute allow (each tool call'))
    expect(runCode).toBeGreaterThan(-1)
    expect(gate).toBeGreaterThan(runCode)
    expect(gate).toBeLessThan(firstSub)
    // every card tag ([n1], [code:3], …) is followed by its ⚖ line once its card ends
    const tagged = lines.flatMap((line, index) => (/^\s*(┌ )?\[[a-z0-9:]+\] /.test(line) ? [index] : []))
    expect(tagged.length).toBeGreaterThan(15)
    for (const index of tagged) {
      let next = index + 1
      if (lines[index]!.trimStart().startsWith('┌')) {
        while (!lines[next]!.trimStart().startsWith('└')) next += 1
        next += 1
      }
      expect(lines[next], `after ${lines[index]}`).toMatch(/^\s*⚖ /)
    }
  })

  it('the timeline and the summary count the same calls', () => {
    const timeline = lines
      .filter((line) => /^ {2}\d+ call\(s\)/.test(line))
      .map((line) => line.split(';')[0]!.trim())
    const summary = lines
      .filter((line) => /^ {2}[✓✗] /.test(line))
      .map((line) => line.match(/turns, (\d+ call\(s\)(?: \+ \d+ sub-call\(s\))?)/)?.[1])
    expect(timeline).toEqual(['12 call(s)', '1 call(s) + 7 sub-call(s)'])
    expect(summary).toEqual(timeline)
  })

  it('edit cards show the change in context, never a snippet-relative hunk header', () => {
    const text = lines.join('\n')
    expect(text).not.toMatch(/@@ -1,1 \+1,1 @@/)
    // native and Code Mode: the result card has the file's real hunk and its context lines
    const hunks = lines.filter((line) => /│ @@ -\d+,\d+ \+\d+,\d+ @@$/.test(line))
    expect(hunks.length).toBe(2)
    for (const hunk of hunks) {
      const at = lines.indexOf(hunk)
      const body = lines.slice(at + 1, at + 8).map((line) => line.replace(/^\s*│ /, ''))
      expect(body).toContain('   const start = (page - 1) * pageSize')
      expect(body).toContain('-  const end = start + pageSize - 1')
      expect(body).toContain('+  const end = start + pageSize')
      expect(body).toContain('   return items.slice(start, end)')
    }
  })

  it('prints no build output', () => {
    expect(lines[0]).toMatch(/^dsh-tools agent demo/)
  })
})

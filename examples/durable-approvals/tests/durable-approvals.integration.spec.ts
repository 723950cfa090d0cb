import { fileURLToPath } from 'node:url'
import { scriptCommand } from '@dsh/tools-codemode/testing'
import { describe, expect, it } from 'vitest'
import { runDemo } from '../src/demo'

/**
 * The service bundled once with the workspace sources it imports (`scriptCommand`): three service
 * starts at a fraction of the cost of `--import tsx` each. better-sqlite3, a native addon, loads
 * from the example's dependencies.
 */
const SERVE = await scriptCommand(fileURLToPath(new URL('../src/serve.ts', import.meta.url)))

describe('durable-approvals example', () => {
  it('a call waits for approval across a SIGKILLed process; the turn completes in the next one, once', async () => {
    const lines: string[] = []
    await runDemo((line) => lines.push(line), { service: SERVE })
    const text = lines.join('\n')
    expect(text).toMatch(/agent turn: \{"status":"waiting","ticket":"apr\.\./)
    expect(text).toContain('process A killed (SIGKILL)')
    expect(text).toMatch(/waiting for a person: deploy\(\{"target":"prod"\}\) — deploys need a person/)
    const b = /process B \(pid (\d+)\)/.exec(text)?.[1]
    expect(text).toMatch(
      new RegExp(
        `ana approves through process B → \\{"status":"done","reply":"Done — deployed prod from process ${b}\\."\\}`,
      ),
    )
    expect(text).toMatch(
      /approving again → \{"status":"done","reply":"Done — deployed prod from process \d+\."\}/,
    )
    expect(text).toContain('deploy body runs: 1')
    // The Code Mode turn: suspended in B with both deploys asked, resumed in C once.
    expect(text).toMatch(/code turn: waiting, run ticket run\.…, waiting for deploy \+ deploy/)
    expect(text).toContain('process B killed (SIGKILL) while the program waits for approval')
    expect(text).toMatch(
      /ana approves the run through process C → done: Released: \{"notes":"v2: faster deploys"/,
    )
    expect(text).toContain('body runs in all: read notes 1, deploy eu 1, deploy us 1')
  }, 180_000)
})

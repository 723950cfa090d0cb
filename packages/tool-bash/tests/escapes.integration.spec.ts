import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from '@deepseek-ai/cordis'
import ToolRuntime, { type ToolExecutionResult } from '@dsh/tools-core'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import * as bash from '../src/index'
import type { BashSandboxInput } from '../src/sandbox-config'
import { hostPids, uniqueMarker } from './helpers'

// Real bash (and real bubblewrap): a call settles, with a clear result, whatever the command
// does to its process group, its pipes or the kernel's argument limits.

let workspace: string

beforeEach(() => {
  workspace = realpathSync(mkdtempSync(join(tmpdir(), 'dsh-bash-esc-')))
})
afterEach(() => {
  rmSync(workspace, { recursive: true, force: true })
})

async function bashTool(sandbox: BashSandboxInput) {
  const ctx = new Context()
  await ctx.plugin(ToolRuntime)
  await ctx.plugin(bash, { workdir: workspace, killGraceMs: 200, sandbox })
  return (command: string): Promise<ToolExecutionResult> =>
    ctx.tools.execute({
      callId: 'escape',
      name: 'bash',
      arguments: { command, description: 'escape test' },
      signal: new AbortController().signal,
    })
}

describe.each([
  ['sandboxed', { fallback: 'refuse' } as const],
  ['unsandboxed', false as const],
])('calls settle (%s)', (_mode, sandbox) => {
  it('a process that left the group (setsid) and still holds the output pipes does not hold the call', async () => {
    const run = await bashTool(sandbox)
    const marker = uniqueMarker()
    try {
      // The escapee keeps stdout and stderr open for 300 s; the call must not wait for it. The
      // command ends only once the escapee runs (so it has left the group, not died with it).
      const up = join(workspace, `up-${marker}`)
      const result = await run(
        `setsid -f sh -c 'echo up > ${up}; exec sleep 300.${marker}'\nwhile [ ! -e ${up} ]; do sleep 0.01; done; echo started`,
      )
      expect(result).toMatchObject({ isError: false, value: { stdout: 'started\n', exitCode: 0 } })
    } finally {
      for (const pid of hostPids(marker)) process.kill(pid, 'SIGKILL')
    }
  }, 20_000)

  it('a command past the kernel argument limit is BASH_SPAWN_FAILED, not a generic failure', async () => {
    const run = await bashTool(sandbox)
    const result = await run(`echo ${'x'.repeat(3_000_000)} | wc -c`)
    expect(result.isError).toBe(true)
    if (result.isError) {
      expect(result.error.info?.code).toBe('BASH_SPAWN_FAILED')
      expect(result.error.message.length).toBeLessThan(500)
    }
  })
})

describe('process count (sandboxed)', () => {
  // Known gap, see README "Not bounded": as root the kernel exempts the sandbox (uid 0 mapped to
  // uid 0) from RLIMIT_NPROC, and the library creates no pids cgroup, so nothing caps forks.
  it('a command cannot start more than a bounded number of processes', async (ctx) => {
    ctx.skip('known gap (README "Not bounded"): as root RLIMIT_NPROC exempts uid 0 and no pids cgroup exists')
    const run = await bashTool({ fallback: 'refuse' })
    const result = await run(
      'for i in $(seq 3000); do sleep 5 & done 2>/dev/null; echo "$(ls /proc | grep -c "^[0-9]")"',
    )
    expect(Number(result.isError ? 0 : (result.value as { stdout: string }).stdout)).toBeLessThan(2000)
  })
})

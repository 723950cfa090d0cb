import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from '@deepseek-ai/cordis'
import * as bash from '@dsh/tool-bash'
import ToolRuntime from '@dsh/tools-core'
import { afterEach, beforeEach, expect, it } from 'vitest'
import * as timeoutPolicy from '../src/index'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'dsh-timeout-bash-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0)
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

/** Killed processes close their pipes a moment before they leave the process table: poll briefly. */
async function survivors(pids: readonly number[]): Promise<number[]> {
  const start = Date.now()
  for (;;) {
    const alive = pids.filter(isAlive)
    if (alive.length === 0 || Date.now() - start > 5_000) return alive
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

it("bash's declared budget is enforced: the group is killed and the result is TOOL_TIMEOUT", async () => {
  const ctx = new Context()
  await ctx.plugin(ToolRuntime)
  await ctx.plugin(timeoutPolicy)
  // The definition declares timeoutMs = maxTimeoutMs; the call asks for the (equal) default.
  // Unsandboxed: this checks the policy, and $! must be a host pid (tool-bash's own suites run
  // this rule in its OS sandbox too).
  await ctx.plugin(bash, {
    workdir: dir,
    maxTimeoutMs: 1000,
    defaultTimeoutMs: 1000,
    killGraceMs: 200,
    sandbox: false,
  })
  const pidFile = join(dir, 'pids')
  const result = await ctx.tools.execute({
    callId: 'c',
    name: 'bash',
    arguments: { command: `sleep 100 & echo $! >> ${pidFile}; sleep 5`, description: 'sleep' },
    signal: new AbortController().signal,
  })
  expect(result).toMatchObject({
    isError: true,
    error: { message: 'tool call timed out after 1000ms', info: { code: 'TOOL_TIMEOUT' } },
    content: [{ type: 'text', text: 'Error: tool call timed out after 1000ms' }],
  })
  const pids = readFileSync(pidFile, 'utf8').split('\n').filter(Boolean).map(Number)
  expect(pids.length).toBe(1)
  expect(await survivors(pids)).toEqual([])
})

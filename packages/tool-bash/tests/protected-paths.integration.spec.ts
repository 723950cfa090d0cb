import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from '@deepseek-ai/cordis'
import ToolRuntime, { type ToolExecutionResult } from '@dsh/tools-core'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import * as bash from '../src/index'

// Real bash, real bubblewrap: files the host later runs or obeys stay read-only in the
// workspace, even though the workspace itself is writable and is not the host's cwd.

let workspace: string

beforeEach(() => {
  workspace = realpathSync(mkdtempSync(join(tmpdir(), 'dsh-bash-protect-')))
})
afterEach(() => {
  rmSync(workspace, { recursive: true, force: true })
})

async function run(command: string): Promise<ToolExecutionResult> {
  const ctx = new Context()
  await ctx.plugin(ToolRuntime)
  await ctx.plugin(bash, { workdir: workspace, killGraceMs: 200, sandbox: { fallback: 'refuse' } })
  return ctx.tools.execute({
    callId: 'protect',
    name: 'bash',
    arguments: { command, description: 'protected paths' },
    signal: new AbortController().signal,
  })
}

describe('protected paths in the workspace (sandboxed)', () => {
  it('git hooks, git config, shell rc files and editor settings cannot be written; other files can', async () => {
    expect(process.cwd()).not.toBe(workspace)
    mkdirSync(join(workspace, '.git', 'hooks'), { recursive: true })
    writeFileSync(join(workspace, '.git', 'config'), '[core]\n')
    const attempts = [
      'echo evil > .git/hooks/pre-commit',
      'echo "[core] fsmonitor = evil" > .git/config',
      'echo evil > .bashrc',
      'echo evil > .profile',
      'mkdir -p .vscode && echo evil > .vscode/settings.json',
      'echo evil > .mcp.json',
      'echo evil > .gitmodules',
    ]
    const result = await run(
      `${attempts.map((attempt) => `(${attempt}) 2>/dev/null`).join('; ')}; echo fine > fine.txt`,
    )
    expect(result.isError).toBe(false)
    expect(readFileSync(join(workspace, 'fine.txt'), 'utf8')).toBe('fine\n')
    expect(readFileSync(join(workspace, '.git', 'config'), 'utf8')).toBe('[core]\n')
    for (const name of [
      '.git/hooks/pre-commit',
      '.bashrc',
      '.profile',
      '.vscode',
      '.mcp.json',
      '.gitmodules',
    ]) {
      expect(existsSync(join(workspace, name)), name).toBe(false)
    }
  })

  it('a .git file (worktree or submodule pointer) is protected whole; without .git, git init still works', async () => {
    writeFileSync(join(workspace, '.git'), 'gitdir: /elsewhere\n')
    await run('echo "gitdir: /tmp/evil" > .git')
    expect(readFileSync(join(workspace, '.git'), 'utf8')).toBe('gitdir: /elsewhere\n')
    rmSync(join(workspace, '.git'))
    const result = await run('mkdir -p .git/hooks && echo "[core]" > .git/config && echo made')
    expect(result.isError ? '' : (result.value as { stdout: string }).stdout).toBe('made\n')
  })
})

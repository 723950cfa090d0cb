/**
 * The temp workspace: a fresh copy of the fixture project per run, and an independent check of
 * its test suite (run directly, not through the agent's tools) that decides success.
 */
import { execFile } from 'node:child_process'
import { cp, mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The fixture project the agent repairs. */
export const FIXTURE_DIR = fileURLToPath(new URL('../fixture/mini-pager', import.meta.url))

/** Copy the fixture into a new temp directory and return its real path. */
export async function createWorkspace(label: string): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), `dsh-demo-${label}-`)))
  await cp(FIXTURE_DIR, dir, { recursive: true })
  return dir
}

/** Remove a workspace made by {@link createWorkspace}. */
export async function removeWorkspace(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true })
}

/** The outcome of running the project's tests directly. */
export interface SuiteCheck {
  readonly passed: boolean
  readonly summary: string
}

/** Run `node --test` in `dir` (outside the agent) and report whether every test passed. */
export function checkTestSuite(dir: string): Promise<SuiteCheck> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--test'], { cwd: dir, timeout: 60_000 }, (error, stdout) => {
      const count = (label: string) => stdout.match(new RegExp(`^# ${label} (\\d+)$`, 'm'))?.[1] ?? '?'
      resolve({
        passed: error === null,
        summary: `${count('pass')} passed, ${count('fail')} failed`,
      })
    })
  })
}

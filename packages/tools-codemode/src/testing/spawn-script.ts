/**
 * Run a TypeScript script in a fresh Node process (bundled with the workspace sources it imports,
 * see `script-command.ts`) and collect how it ended: for what only a whole process shows — a host
 * that exits by itself, or a program that kills its host without taking the test runner with it.
 */
import { spawn } from 'node:child_process'
import { scriptCommand } from './script-command'

/** How a script's process ended. */
export interface ScriptEnd {
  /** The exit code, or `null` when a signal ended it. */
  readonly code: number | null
  /** Whether it was killed for outliving `killAfterMs`. */
  readonly killed: boolean
  readonly stdout: string
  /** The last 4,000 characters of its stderr. */
  readonly stderr: string
}

/**
 * Run `script` with `args` in `cwd` (a package directory, so its dependencies resolve); it is
 * killed (`SIGKILL`) if it has not exited after `killAfterMs`. Never rejects.
 */
export async function spawnScript(
  script: string,
  args: readonly string[],
  options: { readonly cwd: string; readonly killAfterMs: number },
): Promise<ScriptEnd> {
  let command: string[]
  try {
    command = await scriptCommand(script)
  } catch (error) {
    return { code: null, killed: false, stdout: '', stderr: `could not bundle ${script}: ${String(error)}` }
  }
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...command, ...args], {
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk
    })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-4000)
    })
    let killed = false
    const killer = setTimeout(() => {
      killed = true
      child.kill('SIGKILL')
    }, options.killAfterMs)
    child.on('close', (code) => {
      clearTimeout(killer)
      resolve({ code, killed, stdout, stderr })
    })
  })
}

/**
 * Runs a TypeScript fixture in its own Node process, against the packages' sources: bundled once
 * with them (`scriptCommand`), a fraction of the start cost of `--import tsx`.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { scriptCommand } from '@dsh/tools-codemode/testing'

export async function spawnFixture(
  name: string,
  args: readonly string[],
): Promise<ChildProcessWithoutNullStreams> {
  const command = await scriptCommand(fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url)))
  return spawn(process.execPath, [...command, ...args], { stdio: 'pipe' })
}

/** Resolves with the first stdout line equal to `line` (rejects if the process exits first). */
export function waitForLine(child: ChildProcessWithoutNullStreams, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let buffered = ''
    let stderr = ''
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString()
      if (buffered.split('\n').includes(line)) {
        child.stdout.off('data', onData)
        resolve()
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    child.once('exit', (code) => reject(new Error(`fixture exited (${code}) before "${line}": ${stderr}`)))
  })
}

/** Everything the process prints on stdout, and its exit code. */
export function collect(
  child: ChildProcessWithoutNullStreams,
): Promise<{ stdout: string; stderr: string; code: number | null }> {
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString()
  })
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  return new Promise((resolve) => child.once('exit', (code) => resolve({ stdout, stderr, code })))
}

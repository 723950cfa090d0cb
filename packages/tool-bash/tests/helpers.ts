import { readFileSync } from 'node:fs'

/**
 * Whether a process is alive. A zombie (exited, not yet reaped — e.g. reparented to a PID 1
 * that does not reap) counts as dead.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

/** Poll `check` every few ms until it returns a value other than `undefined`. */
export async function waitFor<T>(check: () => T | undefined, what: string, limitMs = 10_000): Promise<T> {
  const start = Date.now()
  for (;;) {
    const value = check()
    if (value !== undefined) return value
    if (Date.now() - start > limitMs) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/** Read pids written one per line to `file`, once at least `count` are there. */
export function readPids(file: string, count: number): number[] | undefined {
  try {
    const pids = readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number)
    return pids.length >= count ? pids : undefined
  } catch {
    return undefined
  }
}

/**
 * The pids still alive once the kernel has had a moment to finish the kills already sent: a
 * SIGKILLed process closes its pipes (letting the tool settle) a little before it is gone from
 * the process table, so a loaded machine can observe it in between. Polls for up to 5 s.
 */
export async function survivors(pids: readonly number[]): Promise<number[]> {
  const start = Date.now()
  for (;;) {
    const alive = pids.filter(isAlive)
    if (alive.length === 0 || Date.now() - start > 5_000) return alive
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

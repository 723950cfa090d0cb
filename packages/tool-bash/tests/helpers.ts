import { mkdtempSync, readdirSync, readFileSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

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

let markers = 0

/**
 * A digits-only marker unique to this test process. Put it in a command's argv (`sleep
 * 100.<marker>`, a `: <marker>` comment in a `bash -c` script) to find its processes from the
 * host by {@link hostPids}: inside the sandbox's PID namespace `$!` and `$$` are not host pids.
 */
export function uniqueMarker(): string {
  return `${process.pid}${++markers}${Math.floor(Math.random() * 1e6)}`
}

/**
 * Host pids of live (non-zombie) processes whose argv contains `marker`, from a scan of the
 * host's `/proc`; with `program`, only those whose argv[0] ends with it.
 */
export function hostPids(marker: string, program?: string): number[] {
  const found: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const pid = Number(entry)
    if (pid === process.pid) continue
    let argv: string[]
    try {
      argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
    } catch {
      continue
    }
    if (!argv.some((arg) => arg.includes(marker))) continue
    if (program !== undefined && !(argv[0] ?? '').endsWith(program)) continue
    if (isAlive(pid)) found.push(pid)
  }
  return found
}

/** Wait until at least `count` processes of `program` carrying `marker` run on the host. */
export function waitForHostPids(marker: string, program: string, count: number): Promise<number[]> {
  return waitFor(() => {
    const pids = hostPids(marker, program)
    return pids.length >= count ? pids : undefined
  }, `${count} × ${program} (${marker})`)
}

/**
 * Every host process carrying `marker` still alive once pending kills have landed: polls until
 * none is left, for up to `limitMs` (each poll scans the whole of `/proc`).
 */
export async function markedSurvivors(marker: string, limitMs = 5_000): Promise<number[]> {
  const start = Date.now()
  for (;;) {
    const alive = hostPids(marker)
    if (alive.length === 0 || Date.now() - start > limitMs) return alive
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/**
 * A PATH with every program of the current one except ripgrep (`rg`): a directory of symlinks
 * to each executable found on PATH, first one of a name wins. Returns the directory (remove it
 * after use) and the PATH value.
 */
export function pathWithoutRipgrep(): { readonly dir: string; readonly path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'dsh-bash-no-rg-'))
  const seen = new Set<string>(['rg'])
  for (const entry of (process.env.PATH ?? '').split(':')) {
    if (entry === '') continue
    let names: string[]
    try {
      names = readdirSync(entry)
    } catch {
      continue
    }
    for (const name of names) {
      if (seen.has(name)) continue
      seen.add(name)
      symlinkSync(join(entry, name), join(dir, name))
    }
  }
  return { dir, path: dir }
}

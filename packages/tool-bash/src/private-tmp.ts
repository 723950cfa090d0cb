import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** The prefix of each sandboxed call's private `TMPDIR` under `os.tmpdir()`; the owner's pid follows. */
export const PRIVATE_TMP_PREFIX = 'dsh-bash-tmp-'

let swept = false

/**
 * Create a call's private tmp directory, `<tmpdir>/dsh-bash-tmp-<pid>-XXXXXX`. Every exit of a
 * call removes its own; the pid in the name lets the first call of a later process remove those
 * of a process that died by a signal before it could (see {@link sweepStalePrivateTmps}).
 */
export function makePrivateTmp(): Promise<string> {
  if (!swept) {
    swept = true
    // In the background: it only removes directories no call of this process uses.
    sweepStalePrivateTmps().catch(() => {})
  }
  return mkdtemp(join(tmpdir(), `${PRIVATE_TMP_PREFIX}${process.pid}-`))
}

/**
 * Remove the private tmp directories of processes that no longer exist (killed by a signal
 * mid-call, so their own cleanup never ran). A directory whose owner pid is alive is left alone,
 * whoever that process is now.
 */
export async function sweepStalePrivateTmps(): Promise<void> {
  const dir = tmpdir()
  const pattern = new RegExp(`^${PRIVATE_TMP_PREFIX}(\\d+)-`)
  for (const name of await readdir(dir)) {
    const owner = pattern.exec(name)?.[1]
    if (owner === undefined || Number(owner) === process.pid || isAlive(Number(owner))) continue
    await rm(join(dir, name), { recursive: true, force: true }).catch(() => {})
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists, owned by someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

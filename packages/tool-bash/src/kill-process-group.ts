/**
 * Signal every process of a process group. The group id is the pid of the `detached` leader.
 * A group that no longer exists is not an error.
 *
 * @param groupId — the leader's pid (the group id).
 * @param signal — the signal to send.
 * @returns `true` if the signal was delivered to at least one process, `false` if the group is gone.
 */
export function killProcessGroup(groupId: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-groupId, signal)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false
    throw error
  }
}

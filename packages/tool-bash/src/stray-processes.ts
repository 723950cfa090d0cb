import { readdirSync, readFileSync } from 'node:fs'

/** Most processes one walk visits: a fork bomb stays in the group, which the group kill reaches. */
const MAX_WALK = 4_096

interface Descendant {
  readonly pid: number
  /** `/proc/<pid>/stat` start time: a pid reused by another process is never signalled. */
  readonly startTime: string
}

/**
 * The descendants of a process-group leader, so that those outside its group when a signal is
 * sent get it by pid: a group kill misses them. Two kinds leave the group: a process that called
 * `setsid` (unsandboxed), and the sandbox's PID-namespace init, which bubblewrap moves into a
 * session of its own. That init normally dies with the sandbox's launcher (`--die-with-parent`),
 * but an abort right after start can come before it arms that signal — while it is still in the
 * group, where, being a namespace init, it ignores the group's SIGTERM — and it then ran the whole
 * command under PID 1. So every descendant is recorded, whatever its group, and the group each
 * one is in is read again when signalling.
 *
 * Found by walking `/proc/<pid>/task/<tid>/children` from the leader, so they must be collected
 * while it lives (before the first signal); processes reparented away before that (a daemonizing
 * double fork) are out of reach. Where `/proc` does not exist (macOS) there is nothing to find.
 */
export class StrayProcesses {
  readonly #found = new Map<number, Descendant>()

  /** @param leader — the pid of the `detached` leader, which is also its group id. */
  constructor(private readonly leader: number) {}

  /** Record the leader's current descendants, adding to those recorded before. */
  collect(): void {
    const queue = [this.leader]
    for (let index = 0; index < queue.length && index < MAX_WALK; index += 1) {
      for (const pid of childrenOf(queue[index] as number)) {
        const stat = readStat(pid)
        if (stat === undefined) continue
        queue.push(pid)
        this.#found.set(pid, { pid, startTime: stat.startTime })
      }
    }
  }

  /** Send `signal` to every recorded process that still runs outside the leader's group. */
  signal(signal: NodeJS.Signals): void {
    for (const found of this.#found.values()) {
      const now = readStat(found.pid)
      if (now === undefined || now.startTime !== found.startTime || now.group === this.leader) continue
      try {
        process.kill(found.pid, signal)
      } catch {
        // Gone since the check (ESRCH).
      }
    }
  }
}

function childrenOf(pid: number): number[] {
  let tasks: string[]
  try {
    tasks = readdirSync(`/proc/${pid}/task`)
  } catch {
    return []
  }
  const children: number[] = []
  for (const task of tasks) {
    try {
      for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ')) {
        if (child !== '') children.push(Number(child))
      }
    } catch {
      // The task ended while we read.
    }
  }
  return children
}

/** Process group and start time from `/proc/<pid>/stat` (fields 5 and 22); a zombie is none. */
function readStat(pid: number): { readonly group: number; readonly startTime: string } | undefined {
  let stat: string
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return undefined
  }
  // The command name (field 2) may hold spaces and parentheses: fields after it follow the last `)`.
  // fields[0] is field 3 (state), so field N is fields[N - 3].
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  if (fields[0] === 'Z') return undefined
  return { group: Number(fields[2]), startTime: fields[19] ?? '' }
}

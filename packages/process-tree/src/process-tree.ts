import { readdirSync, readFileSync } from 'node:fs'

/** Most processes one walk visits: a fork bomb's copies are not worth a longer walk. */
const MAX_WALK = 4_096

interface Recorded {
  readonly pid: number
  /** `/proc/<pid>/stat` start time: a pid reused by another process is never signalled. */
  readonly startTime: string
}

/** Options of {@link ProcessTree.signal}. */
export interface SignalOptions {
  /**
   * Skip the recorded processes that are in this process group when signalled (a group
   * signal already reached them, and a second delivery would run a handler twice).
   */
  readonly exceptGroup?: number
}

/**
 * The descendants of one process, recorded while it lives so they can still be signalled after
 * it is gone. Killing a process (or its process group) misses descendants that outlive it on
 * their own: a child that called `setsid`, a namespace init in a session of its own (bubblewrap's),
 * or the real server behind a launcher (`sh -c`, `npx`) that is wedged and never reads the EOF
 * its closed stdin would give it. Orphans are reparented to PID 1 at once, so they can only be
 * found from the root while it still runs: call {@link collect} before the first signal.
 *
 * Found by walking `/proc/<pid>/task/<tid>/children`; where `/proc` does not exist (macOS)
 * nothing is found and {@link signal} does nothing. A process is signalled only while its start
 * time still matches the one recorded, so a pid reused since is never hit.
 */
export class ProcessTree {
  readonly #recorded = new Map<number, Recorded>()
  /** The root's start time when the tree was made: a later walk from a reused pid finds nothing. */
  readonly #rootStart: string | undefined

  /** @param root — the pid whose descendants are recorded (not the root itself). */
  constructor(readonly root: number) {
    this.#rootStart = readStat(root)?.startTime
  }

  /** The recorded pids (descendants seen by any {@link collect} so far). */
  get pids(): number[] {
    return [...this.#recorded.keys()]
  }

  /**
   * Record the root's current descendants, adding to those recorded before; returns `this`.
   * Once the root has exited (or its pid belongs to another process) there is nothing to add.
   */
  collect(): this {
    if (this.#rootStart === undefined || readStat(this.root)?.startTime !== this.#rootStart) return this
    const queue = [this.root]
    for (let index = 0; index < queue.length && index < MAX_WALK; index += 1) {
      for (const pid of childrenOf(queue[index] as number)) {
        const stat = readStat(pid)
        if (stat === undefined) continue
        queue.push(pid)
        this.#recorded.set(pid, { pid, startTime: stat.startTime })
      }
    }
    return this
  }

  /**
   * Send `signal` to every recorded process that still runs (see {@link SignalOptions}).
   * @returns how many processes were signalled.
   */
  signal(signal: NodeJS.Signals, options: SignalOptions = {}): number {
    let sent = 0
    for (const recorded of this.#recorded.values()) {
      const now = readStat(recorded.pid)
      if (now === undefined || now.startTime !== recorded.startTime) continue
      if (now.group === options.exceptGroup) continue
      try {
        process.kill(recorded.pid, signal)
        sent += 1
      } catch {
        // Gone since the check (ESRCH), or not ours to signal (EPERM).
      }
    }
    return sent
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
  // The command name (field 2) may hold spaces and parentheses: fields after it follow the last
  // `)`. fields[0] is field 3 (state), so field N is fields[N - 3].
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  if (fields[0] === 'Z') return undefined
  return { group: Number(fields[2]), startTime: fields[19] ?? '' }
}

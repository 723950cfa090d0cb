import { type ChildProcessByStdio, spawn } from 'node:child_process'
import type { Readable } from 'node:stream'
import type { ChildEvent, SpawnRequest } from './planner-protocol'

// Output bytes sent to the host and not yet acknowledged, past which the pipes are paused: a
// command that floods its output cannot fill the host's message queue faster than it reads.
const MAX_UNACKED_BYTES = 1 << 20

interface Running {
  readonly child: ChildProcessByStdio<null, Readable, Readable>
  unacked: number
}

/**
 * Starts sandboxed commands in this worker thread, so that the host's thread never pays for
 * `spawn()` (libuv forks the whole process synchronously), and relays their output and
 * lifecycle to the host as {@link ChildEvent}s. Killing stays with the host: it has the pid.
 */
export class WorkerSpawner {
  readonly #running = new Map<number, Running>()

  constructor(private readonly post: (event: ChildEvent) => void) {}

  /** Start `request`'s process, detached (its own process group), stdin closed. */
  start(request: SpawnRequest): void {
    const { id } = request
    let child: ChildProcessByStdio<null, Readable, Readable>
    try {
      child = spawn(request.file, request.args, {
        cwd: request.cwd,
        env: request.env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
    } catch (error) {
      this.post({ id, event: 'error', message: (error as Error).message, started: false })
      return
    }
    const running: Running = { child, unacked: 0 }
    this.#running.set(id, running)
    const relay = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
      running.unacked += chunk.length
      if (running.unacked > MAX_UNACKED_BYTES) {
        child.stdout.pause()
        child.stderr.pause()
      }
      this.post({ id, event: 'data', stream, chunk: new Uint8Array(chunk) })
    }
    child.stdout.on('data', relay('stdout'))
    child.stderr.on('data', relay('stderr'))
    child.once('spawn', () => this.post({ id, event: 'spawn', pid: child.pid! }))
    child.once('error', (error) => {
      this.post({ id, event: 'error', message: error.message, started: child.pid !== undefined })
    })
    child.once('exit', () => this.post({ id, event: 'exit' }))
    child.once('close', (code: number | null, signal: NodeJS.Signals | null) => {
      this.#running.delete(id)
      this.post({ id, event: 'close', code, signal })
    })
  }

  /** The host processed `bytes` of output: resume the pipes once below the bound. */
  ack(id: number, bytes: number): void {
    const running = this.#running.get(id)
    if (running === undefined) return
    running.unacked -= bytes
    if (running.unacked <= MAX_UNACKED_BYTES) {
      running.child.stdout.resume()
      running.child.stderr.resume()
    }
  }

  /** Close our ends of the pipes (a process that left the group still holds them). */
  destroyPipes(id: number): void {
    const running = this.#running.get(id)
    running?.child.stdout.destroy()
    running?.child.stderr.destroy()
  }
}

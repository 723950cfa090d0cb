import { EventEmitter } from 'node:events'
import type { ChildEvent } from './worker/planner-protocol'

/** One output stream of a {@link RemoteChild}: emits `'data'` Buffers like a pipe. */
export class RemoteStream extends EventEmitter {
  constructor(private readonly onDestroy: () => void) {
    super()
  }

  /** Close our end of the pipe (in the worker that holds it). */
  destroy(): void {
    this.onDestroy()
  }
}

/**
 * A process started by the planner worker, seen from the host thread with the part of the
 * `ChildProcess` interface `runCommand` uses: `pid`, `stdout`/`stderr` data, and the `spawn`,
 * `error`, `exit` and `close` events, replayed from the worker's {@link ChildEvent}s. Each
 * chunk is acknowledged once emitted, which lets the worker resume a paused pipe.
 */
export class RemoteChild extends EventEmitter {
  pid: number | undefined
  readonly stdout: RemoteStream
  readonly stderr: RemoteStream

  /**
   * @param ack — tells the worker how many output bytes were handled.
   * @param destroyPipes — asks the worker to close its ends of the pipes.
   */
  constructor(
    private readonly ack: (bytes: number) => void,
    destroyPipes: () => void,
  ) {
    super()
    this.stdout = new RemoteStream(destroyPipes)
    this.stderr = new RemoteStream(destroyPipes)
  }

  /** Replay one event from the worker. */
  deliver(event: ChildEvent): void {
    switch (event.event) {
      case 'spawn':
        this.pid = event.pid
        this.emit('spawn')
        return
      case 'data': {
        const chunk = Buffer.from(event.chunk.buffer, event.chunk.byteOffset, event.chunk.byteLength)
        ;(event.stream === 'stdout' ? this.stdout : this.stderr).emit('data', chunk)
        this.ack(chunk.length)
        return
      }
      case 'error':
        this.emit('error', new Error(event.message))
        return
      case 'exit':
        this.emit('exit')
        return
      case 'close':
        this.emit('close', event.code, event.signal)
        return
    }
  }
}

/**
 * A run worker inside a process of its own (`isolation: 'process'`): the subset of `Worker` the
 * runtime uses — `postMessage`, `message`/`messageerror`/`error`/`exit` events, `terminate`,
 * `ref`/`unref` and `performance.eventLoopUtilization` — backed by a fresh `node` process that
 * hosts the worker and relays the protocol (see `relay.ts`). The host kills the process
 * with SIGKILL, which stops even a builtin that cannot be interrupted.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { deserialize } from 'node:v8'
import type { LoopUtilization } from '@dsh/tools-codemode/runtime-kit'
import { RELAY_SOURCE } from './generated/relay-source'

/** Memory a run process may use besides the worker's heap cap (Node itself, the relay, buffers). */
export const PROCESS_MEMORY_OVERHEAD_MB = 256

/** Options of a {@link ProcessWorker}. */
export interface ProcessWorkerOptions {
  readonly maxOldGenerationSizeMb: number
  /** The worker's `workerData`; it crosses the IPC channel, so it must survive `v8.serialize`. */
  readonly workerData?: unknown
}

/** A run worker hosted by its own Node process. */
export class ProcessWorker extends EventEmitter {
  readonly #child: ChildProcess
  readonly #exited: Promise<number>
  #active = 0
  #idle = 0
  /** The worker's event-loop utilisation, as last reported by the relay. */
  readonly performance = {
    eventLoopUtilization: (base?: LoopUtilization): LoopUtilization => {
      const active = this.#active - (base?.active ?? 0)
      const idle = this.#idle - (base?.idle ?? 0)
      return { active, idle, utilization: active + idle > 0 ? active / (active + idle) : 0 }
    },
  }

  constructor(source: string, options: ProcessWorkerOptions) {
    super()
    // No `--max-old-space-size`: that flag is V8's, for every isolate of the process, and would
    // override the worker's own heap cap (`resourceLimits`), so a run got that heap whatever its
    // `maxOldGenerationSizeMb`. The relay's RSS cap bounds the whole process, relay included.
    const child = spawn(process.execPath, ['-e', RELAY_SOURCE], {
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      serialization: 'advanced',
      env: {},
    })
    this.#child = child
    this.#exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        if (signal !== null && signal !== 'SIGKILL') {
          this.emit(
            'error',
            new Error(`the run process ended on ${signal} (a fatal error in the program's engine)`),
          )
        }
        this.emit('exit', code ?? 1)
        resolve(code ?? 1)
      })
    })
    child.on('error', (error) => this.emit('error', error))
    child.on('message', (message: unknown) => this.#onRelay(message))
    child.send({
      k: '_boot',
      source,
      workerData: options.workerData,
      heapMb: options.maxOldGenerationSizeMb,
      rssCap: (options.maxOldGenerationSizeMb + PROCESS_MEMORY_OVERHEAD_MB) * 1024 * 1024,
    })
  }

  /** Send a protocol message to the worker (dropped once the process has gone). */
  postMessage(message: unknown): void {
    try {
      if (this.#child.connected) this.#child.send(message as never)
    } catch {
      // The process is exiting; the exit event ends the run.
    }
  }

  /** Kill the process (SIGKILL) and resolve once it has exited. */
  terminate(): Promise<number> {
    this.#child.kill('SIGKILL')
    return this.#exited
  }

  /** Let the process keep the host alive. */
  ref(): void {
    this.#child.ref()
    ;(this.#child.channel as { ref?: () => void } | null | undefined)?.ref?.()
  }

  /** Let the host exit while this process is alive. */
  unref(): void {
    this.#child.unref()
    ;(this.#child.channel as { unref?: () => void } | null | undefined)?.unref?.()
  }

  #onRelay(raw: unknown): void {
    if (typeof raw !== 'object' || raw === null) return
    const message = raw as {
      k?: unknown
      b?: unknown
      a?: unknown
      i?: unknown
      code?: unknown
      message?: unknown
    }
    switch (message.k) {
      case '_m': {
        if (!(message.b instanceof Uint8Array)) return
        let payload: unknown
        try {
          payload = deserialize(message.b)
        } catch {
          this.emit('messageerror', new Error('a message from the run process could not be deserialized'))
          return
        }
        this.emit('message', payload)
        return
      }
      case '_elu':
        if (typeof message.a === 'number' && typeof message.i === 'number') {
          this.#active = message.a
          this.#idle = message.i
        }
        return
      case '_messageerror':
        this.emit('messageerror', new Error('a message from the worker could not be deserialized'))
        return
      case '_error': {
        const error = new Error(typeof message.message === 'string' ? message.message : 'the worker failed')
        if (typeof message.code === 'string') (error as Error & { code?: string }).code = message.code
        this.emit('error', error)
        return
      }
    }
  }
}

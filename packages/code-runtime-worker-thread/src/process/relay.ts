/**
 * The run process's program (the bundle entry; `scripts/node-vm-worker-source.ts` turns it into
 * the CommonJS source `ProcessWorker` starts with `node -e`), used with `isolation: 'process'`:
 * a fresh Node process per run whose only job is to host the run worker and relay the protocol
 * over IPC. A fatal V8 error in the worker (which aborts the whole process it lives in) then
 * ends this process, not the host. The relay also:
 * - reports the worker's event-loop utilisation every 20 ms once a run started, so the host's
 *   `computeMs` watchdog reads it as it would a thread's;
 * - caps the process's resident memory (ArrayBuffers live outside the worker's heap cap) and
 *   exits, reporting an out-of-memory error, when it grows past the cap;
 * - forwards worker messages as `v8.serialize` bytes, so a message the host cannot deserialize
 *   fails there inside a try/catch (as `messageerror`), never in Node's IPC reader.
 * It exits as soon as the worker has exited or the host has gone.
 */
import v8 from 'node:v8'
import { Worker } from 'node:worker_threads'

/** The first IPC message: what to boot. */
interface BootMessage {
  readonly k: '_boot'
  readonly source: string
  readonly workerData: unknown
  readonly heapMb: number
  readonly rssCap?: number
}

let worker: Worker | undefined
let reporting: NodeJS.Timeout | undefined
let rssCap = Number.POSITIVE_INFINITY

const send = (message: unknown): void => {
  try {
    if (process.connected) process.send!(message)
  } catch {}
}

function reportLoop(running: Worker): void {
  const u = running.performance.eventLoopUtilization()
  send({ k: '_elu', a: u.active, i: u.idle })
}

function startReports(running: Worker): void {
  reporting = setInterval(() => {
    try {
      reportLoop(running)
      if (process.memoryUsage.rss() > rssCap) {
        send({
          k: '_error',
          code: 'ERR_WORKER_OUT_OF_MEMORY',
          message: 'the run process exceeded its memory cap',
        })
        process.exit(1)
      }
    } catch {}
  }, 20)
}

function boot(message: BootMessage): Worker {
  if (typeof message.rssCap === 'number') rssCap = message.rssCap
  const booted = new Worker(message.source, {
    eval: true,
    workerData: message.workerData,
    env: {},
    execArgv: [],
    argv: [],
    name: 'run_code',
    resourceLimits: { maxOldGenerationSizeMb: message.heapMb },
  })
  booted.on('message', (payload: unknown) => {
    let bytes: Buffer
    try {
      bytes = v8.serialize(payload)
    } catch {
      send({ k: '_messageerror' })
      return
    }
    // Before the run starts (the worker's 'ready'), report the boot's busy time, so the host's
    // computeMs baseline excludes it.
    if (reporting === undefined) {
      try {
        reportLoop(booted)
      } catch {}
    }
    send({ k: '_m', b: bytes })
  })
  booted.on('messageerror', () => send({ k: '_messageerror' }))
  booted.on('error', (error: unknown) => {
    const record = error as { code?: unknown; message?: unknown } | null
    const code = typeof record?.code === 'string' ? record.code : undefined
    const text = typeof record?.message === 'string' ? record.message : 'the worker failed'
    send({ k: '_error', code, message: text })
  })
  booted.on('exit', (code: number) => {
    clearInterval(reporting)
    send({ k: '_exit', code })
    process.exit(0)
  })
  return booted
}

process.on('message', (message: unknown) => {
  if (worker === undefined) {
    if (message === null || typeof message !== 'object' || (message as { k?: unknown }).k !== '_boot') return
    worker = boot(message as BootMessage)
    return
  }
  if (reporting === undefined) startReports(worker)
  worker.postMessage(message)
})
process.on('disconnect', () => process.exit(0))

/**
 * Source of the run process (`node -e`), used with `isolation: 'process'`: a fresh Node process
 * per run whose only job is to host the run worker and relay the protocol over IPC. A fatal V8
 * error in the worker (which aborts the whole process it lives in) then ends this process, not
 * the host. The relay also:
 * - reports the worker's event-loop utilisation every 20 ms once a run started, so the host's
 *   `computeMs` watchdog reads it as it would a thread's;
 * - caps the process's resident memory (ArrayBuffers live outside the worker's heap cap) and
 *   exits, reporting an out-of-memory error, when it grows past the cap;
 * - forwards worker messages as `v8.serialize` bytes, so a message the host cannot deserialize
 *   fails there inside a try/catch (as `messageerror`), never in Node's IPC reader.
 * It exits as soon as the worker has exited or the host has gone.
 */
export const RELAY_SOURCE = `'use strict'
const { Worker } = require('node:worker_threads')
const v8 = require('node:v8')
let worker
let reporting
let rssCap = Infinity
const send = (message) => {
  try {
    if (process.connected) process.send(message)
  } catch {}
}
function reportLoop() {
  const u = worker.performance.eventLoopUtilization()
  send({ k: '_elu', a: u.active, i: u.idle })
}
function startReports() {
  reporting = setInterval(() => {
    try {
      reportLoop()
      if (process.memoryUsage.rss() > rssCap) {
        send({ k: '_error', code: 'ERR_WORKER_OUT_OF_MEMORY', message: 'the run process exceeded its memory cap' })
        process.exit(1)
      }
    } catch {}
  }, 20)
}
process.on('message', (message) => {
  if (worker === undefined) {
    if (message === null || typeof message !== 'object' || message.k !== '_boot') return
    if (typeof message.rssCap === 'number') rssCap = message.rssCap
    worker = new Worker(message.source, {
      eval: true, env: {}, execArgv: [], argv: [], name: 'run_code',
      resourceLimits: { maxOldGenerationSizeMb: message.heapMb },
    })
    worker.on('message', (payload) => {
      let bytes
      try {
        bytes = v8.serialize(payload)
      } catch {
        send({ k: '_messageerror' })
        return
      }
      // Before the run starts (the worker's 'ready'), report the boot's busy time, so the
      // host's computeMs baseline excludes it.
      if (reporting === undefined) {
        try {
          reportLoop()
        } catch {}
      }
      send({ k: '_m', b: bytes })
    })
    worker.on('messageerror', () => send({ k: '_messageerror' }))
    worker.on('error', (error) => {
      const code = error && typeof error.code === 'string' ? error.code : undefined
      const text = error && typeof error.message === 'string' ? error.message : 'the worker failed'
      send({ k: '_error', code, message: text })
    })
    worker.on('exit', (code) => {
      clearInterval(reporting)
      send({ k: '_exit', code })
      process.exit(0)
    })
    return
  }
  if (reporting === undefined) startReports()
  worker.postMessage(message)
})
process.on('disconnect', () => process.exit(0))
`

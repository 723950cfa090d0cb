/**
 * Source of the worker's privileged side, started with `new Worker(source, { eval: true })` so
 * it needs no file on disk (it works the same from `src` under vitest and from the tsup bundle).
 *
 * It boots a fresh `vm` context with string and wasm code generation disabled, evaluates the
 * kernel in it, reports `ready`, then waits for exactly one `run` message. Program effects reach
 * this side only through the kernel's host functions, which accept primitives (and clone the
 * program's call arguments), return primitives, and never throw into the context. After the
 * completion message the worker exits by itself; the host terminates it as well.
 */
import { KERNEL_SOURCE } from './kernel-source'

const BOOTSTRAP_BODY = `
const { parentPort } = require('node:worker_threads')
const vm = require('node:vm')
const { Buffer } = require('node:buffer')

// Neither handler touches the value it is given: it may be the program's object, and reading a
// property, converting it to a string or inspecting it would run program code (a getter, a
// toString, a 'nodejs.util.inspect.custom' hook handed the privileged realm's inspect) outside
// the kernel's guard. With a listener in place Node itself never inspects the value either.
process.on('unhandledRejection', () => {})
process.on('uncaughtException', () => {
  try {
    finishRun(1, 'internal worker error: an exception escaped the program guard')
  } catch {}
  try {
    process.exit(1)
  } catch {}
})

const context = vm.createContext(Object.create(null), {
  name: 'run_code',
  codeGeneration: { strings: false, wasm: false },
})
const kernel = vm.runInContext(KERNEL_SOURCE, context, { filename: 'run_code:kernel' })(
  hostCall, hostLog, hostTimer, hostClearTimer, hostDone,
)

let started = false
let done = false
let limit = 0
let bytes = 0
let lineLimit = Infinity
let lineCount = 0
let nextCallId = 0
let outstanding = 0
let outbox = []
let flushQueued = false
// Log lines: the first EAGER_LINES of an event-loop turn are posted at once (a program killed in
// a hot loop still shows what it printed); beyond that they travel in batches, so a flood of
// lines costs the host one message per LOG_BATCH_LINES lines or LOG_BATCH_BYTES bytes instead of
// one per line (each message is a separate wake-up and allocation on the host).
const EAGER_LINES = 64
const LOG_BATCH_LINES = 1024
const LOG_BATCH_BYTES = 65536
let eagerLeft = EAGER_LINES
let logBatch = []
let logBatchBytes = 0
let logTurnQueued = false
const timers = new Map()

function post(message) {
  parentPort.postMessage(message)
}

function flushLogs() {
  if (logBatch.length === 0) return
  const lines = logBatch
  logBatch = []
  logBatchBytes = 0
  post({ k: 'logs', l: lines })
}

function endLogTurn() {
  logTurnQueued = false
  eagerLeft = EAGER_LINES
  if (!done) flushLogs()
}

function flush() {
  flushQueued = false
  if (done || outbox.length === 0) return
  flushLogs()
  const calls = outbox
  outbox = []
  post({ k: 'calls', c: calls })
}

function cloneError(name, error) {
  const reason = error && typeof error.message === 'string' ? error.message : 'value could not be cloned'
  return 'arguments for ' + name + ' are not JSON-cloneable: ' + reason
}

// A call made while no other is outstanding (a sequential await of one binding) is posted at once:
// postMessage clones the arguments synchronously, so the snapshot is taken here as for a
// batched call, and the host starts on it while this thread finishes its turn. Calls made while
// others are outstanding are snapshotted now and travel together at the end of the microtask turn.
function hostCall(name, args) {
  try {
    if (done) return 'the run has ended'
    if (typeof name !== 'string') return 'invalid binding name'
    const id = nextCallId + 1
    if (outstanding === 0 && outbox.length === 0) {
      try {
        flushLogs()
        post({ k: 'calls', c: [id, name, args] })
      } catch (error) {
        return cloneError(name, error)
      }
    } else {
      let copy
      try {
        copy = structuredClone(args)
      } catch (error) {
        return cloneError(name, error)
      }
      outbox.push(id, name, copy)
      if (!flushQueued) {
        flushQueued = true
        queueMicrotask(flush)
      }
    }
    nextCallId = id
    outstanding += 1
    return id
  } catch {
    return 'the call could not be sent'
  }
}

function hostLog(line) {
  try {
    if (done) return
    const text = typeof line === 'string' ? line : '[unprintable]'
    // Every line costs its UTF-8 size plus one byte (its line break), so empty lines count too.
    const size = Buffer.byteLength(text, 'utf8') + 1
    bytes += size
    lineCount += 1
    if (lineCount > lineLimit) {
      finishRun(3, 'output exceeded maxLogLines (' + lineLimit + ' lines)')
      return
    }
    if (bytes > limit) {
      finishRun(3, 'output exceeded maxOutputBytes (' + limit + ' bytes)')
      return
    }
    if (eagerLeft > 0 && logBatch.length === 0) {
      eagerLeft -= 1
      post({ k: 'log', l: text })
    } else {
      logBatch.push(text)
      logBatchBytes += size
      if (logBatch.length >= LOG_BATCH_LINES || logBatchBytes >= LOG_BATCH_BYTES) flushLogs()
    }
    if (!logTurnQueued) {
      logTurnQueued = true
      setImmediate(endLogTurn)
    }
  } catch {}
}

function onTimer(id) {
  const timer = timers.get(id)
  if (timer === undefined || done) return
  if (!timer.repeat) timers.delete(id)
  kernel.fire(id)
}

function hostTimer(id, ms, repeat) {
  try {
    if (done || typeof id !== 'number' || typeof ms !== 'number') return
    const handle = repeat === true ? setInterval(onTimer, ms, id) : setTimeout(onTimer, ms, id)
    timers.set(id, { handle, repeat: repeat === true })
  } catch {}
}

function hostClearTimer(id) {
  try {
    const timer = timers.get(id)
    if (timer === undefined) return
    timers.delete(id)
    clearTimeout(timer.handle)
  } catch {}
}

function hostDone(status, payload) {
  try {
    finishRun(status, payload)
  } catch {}
}

function finishRun(status, payload) {
  if (done) return
  done = true
  let s = status === 0 || status === 1 || status === 2 || status === 3 ? status : 1
  let v = typeof payload === 'string' ? payload : s === 0 ? undefined : 'the run failed'
  if (v !== undefined && bytes + Buffer.byteLength(v, 'utf8') > limit) {
    s = 3
    v = (status === 0 ? 'result' : 'failure message') + ' exceeded maxOutputBytes (' + limit + ' bytes)'
  }
  // The host settles a completed run on this message without waiting for the thread's exit,
  // so nothing may run after it: in a worker, process.exit() calls V8's TerminateExecution, and
  // no JavaScript (program code, microtask, timer, 'exit' listener — there is none) runs again.
  try {
    flushLogs()
  } catch {}
  post({ k: 'done', s, v })
  process.exit(0)
}

function startRun(message) {
  if (started) return
  started = true
  limit = typeof message.limit === 'number' ? message.limit : 0
  if (typeof message.lines === 'number') lineLimit = message.lines
  if (typeof message.code !== 'string' || typeof message.names !== 'string') {
    finishRun(1, 'malformed run request')
    return
  }
  try {
    kernel.install(message.names)
  } catch {
    finishRun(1, 'malformed binding names')
    return
  }
  let script
  try {
    script = new vm.Script(message.code, {
      filename: 'run_code.ts',
      importModuleDynamically: () => {
        throw kernel.denyImport()
      },
    })
  } catch (error) {
    const text = error && typeof error.message === 'string' ? error.message : 'the program could not be compiled'
    finishRun(1, 'SyntaxError: ' + text)
    return
  }
  let program
  try {
    program = script.runInContext(context, { displayErrors: false })
  } catch (error) {
    finishRun(1, kernel.describeError(error))
    return
  }
  kernel.run(program)
}

function isPrimitive(value) {
  return value === null || (typeof value !== 'object' && typeof value !== 'function')
}

parentPort.on('message', (message) => {
  if (message === null || typeof message !== 'object') return
  if (message.k === 'res') {
    const r = message.r
    if (!Array.isArray(r)) return
    for (let i = 0; i + 3 < r.length; i += 4) {
      const a = r[i + 2]
      const b = r[i + 3]
      if (outstanding > 0) outstanding -= 1
      if (isPrimitive(a) && isPrimitive(b)) kernel.settle(r[i], r[i + 1], a, b)
    }
  } else if (message.k === 'run') {
    startRun(message)
  }
})

post({ k: 'ready' })
`

/** The worker's bootstrap program (CommonJS, strict), with the kernel source inlined. */
export const BOOTSTRAP_SOURCE = `'use strict'\nconst KERNEL_SOURCE = ${JSON.stringify(KERNEL_SOURCE)}\n${BOOTSTRAP_BODY}`

/**
 * The QuickJS engine's worker program (Node side of the worker thread). It is bundled with
 * esbuild into `generated/quickjs-worker-source.ts` and started with `new Worker(source,
 * { eval: true })`, like the node:vm bootstrap, so it speaks the same protocol (ready / log /
 * calls / done; run / res) and the host side stays engine-agnostic.
 *
 * This module is the protocol side: call ids and batching, log accounting (every line costs at
 * least one byte), timers, completion, and the engine's busy time, which the interrupt handler
 * compares with `computeMs` (once it fires, no guest code runs again and the host's watchdog
 * ends the run as `timeout`). The engine itself is set up by `start-engine.ts`.
 */
import { parentPort, workerData } from 'node:worker_threads'
import {
  DoneStatus,
  readValueLimits,
  type ValueLimits,
  valueTextIssue,
} from '@dsh/tools-codemode/runtime-kit'
import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten-core'
import { callBatchEntry, callBatchText } from '../../protocol/call-batch'
import { CallSlotWriter } from '../../protocol/call-slot'
import { ReplySlotReader } from '../../protocol/reply-slot'
import type { EngineLink, LinkResult } from './engine-link'
import type { EngineWorkerData } from './engine-worker-data'
import { type KernelHandles, startEngine, warmUp } from './start-engine'

declare const __GUEST_KERNEL_SOURCE__: string

/** What a guest entry returns: an engine call's result to check, or nothing. */
type GuestResult = ReturnType<QuickJSContext['callFunction']> | LinkResult | undefined

const data = workerData as EngineWorkerData
const port = parentPort!

let vm: QuickJSContext
let kernel: KernelHandles
let link: EngineLink
let started = false
let done = false
/** Set once the interrupt handler stopped the engine: no guest code runs again. */
let halted = false
let limit = 0
let bytes = 0
let lineLimit = Number.POSITIVE_INFINITY
/** `maxValueNodes` / `maxValueDepth`: each value is measured here before the host receives it. */
let valueLimits: ValueLimits = readValueLimits({})
let lineCount = 0
// Log lines: the first EAGER_LINES of a guest turn are posted at once (a program that is then
// stopped still shows what it printed); beyond that they travel in `logs` batches of at most
// LOG_BATCH_LINES lines or LOG_BATCH_BYTES bytes, flushed at the end of the turn, so a flood of
// lines costs the host one wake-up per batch instead of one per line.
const EAGER_LINES = 64
const LOG_BATCH_LINES = 1024
const LOG_BATCH_BYTES = 65_536
let eagerLeft = EAGER_LINES
let logBatch: string[] = []
let logBatchBytes = 0
let nextCallId = 0
let outstanding = 0
/** Calls made while others are outstanding, as call-batch entries, sent at the end of the turn. */
let outbox: string[] = []
/** Id of the first call in `outbox`. */
let outboxFirstId = 0
/** UTF-16 units of call text made in the current guest turn (sent or still in `outbox`). */
let turnUnits = 0
/**
 * The most call text one guest turn may make. It lives on the worker's Node heap, outside the
 * engine's memory cap, and is copied again when joined and posted: a program issuing calls with
 * large arguments in a loop that never yields would otherwise fill that heap (or the host's
 * message queue, which only drains as fast as the host reads). Past it, a call is refused in the
 * guest at once. A quarter of the engine's cap in bytes, as the worker holds about three copies.
 */
const maxTurnUnits = Math.max(1 << 20, Math.floor(data.memoryLimitBytes / 8))
/**
 * Calls and call text per batch: an outbox that reaches either is sent at once, so the host
 * reads a burst of calls as several messages, each parsed and dispatched in a turn of its own,
 * instead of one that holds its main thread for long.
 */
const MAX_BATCH_CALLS = 1024
const MAX_BATCH_UNITS = 1 << 20
/** UTF-16 units of call text in `outbox`. */
let outboxUnits = 0
let guestMs = 0
let guestSince = 0
const timers = new Map<number, { handle: NodeJS.Timeout; repeat: boolean }>()
/**
 * Replies through the shared slot (see `protocol/reply-slot.ts`). While calls are outstanding
 * and the engine has nothing to run, the worker blocks on the slot for up to WAIT_WINDOW_MS at a
 * time. That time counts as busy in the host's computeMs watchdog (the event loop is not idle),
 * so the worker stops blocking after a window passes without a reply (a slow tool: it waits in
 * its event loop instead, where waiting is free) and once it has blocked for a twentieth of
 * computeMs in all. Timers due meanwhile fire at most one window late.
 */
const WAIT_WINDOW_MS = 4
const slot = data.replySlot === undefined ? undefined : new ReplySlotReader(data.replySlot)
const callSlot = data.callSlot === undefined ? undefined : new CallSlotWriter(data.callSlot)
const blockBudgetMs = data.computeMs / 20
let blockedMs = 0
let pumping = false

/** Messages posted since the run started (the call slot tells the host how many precede a batch). */
let posted = 0

function post(message: unknown): void {
  port.postMessage(message)
  posted += 1
}

function finishRun(status: number, payload: string | undefined): void {
  if (done) return
  done = true
  let s = status
  let v = payload
  if (v !== undefined && bytes + Buffer.byteLength(v, 'utf8') > limit) {
    s = DoneStatus.OUTPUT_LIMIT
    v = `${status === DoneStatus.OK ? 'result' : 'failure message'} exceeded maxOutputBytes (${limit} bytes)`
  } else if (v !== undefined && s === DoneStatus.OK) {
    const tooLarge = valueTextIssue(v, 'the result', valueLimits)
    if (tooLarge !== undefined) {
      s = DoneStatus.OUTPUT_LIMIT
      v = tooLarge
    }
  }
  // As in the node:vm bootstrap: process.exit() in a worker is V8's TerminateExecution, so
  // nothing runs after the completion message (the host settles on it).
  flushLogs()
  post({ k: 'done', s, v })
  process.exit(0)
}

/** Run guest code, counting its time toward `computeMs`; afterwards drain the job queue. */
function enterGuest(action: () => GuestResult): void {
  if (done || halted) return
  guestSince = performance.now()
  try {
    runGuest(action)
  } catch (error) {
    // The embedding library throws (rather than returning an engine error) when the engine
    // cannot even allocate the handles it needs; the run ends as an exception all the same.
    if (!halted) finishRun(DoneStatus.EXCEPTION, `InternalError: ${engineFailure(error)}`)
  } finally {
    guestMs += performance.now() - guestSince
    guestSince = 0
    eagerLeft = EAGER_LINES
    turnUnits = 0
    flushLogs()
    flush()
  }
}

function engineFailure(error: unknown): string {
  return error instanceof Error && typeof error.message === 'string' ? error.message : 'the engine failed'
}

/** Run `action`, then every job it queued (promise reactions), until the queue is empty. */
function runGuest(action: () => GuestResult): void {
  const first = action()
  if (first !== undefined) {
    if (first.error !== undefined) onGuestError(first.error)
    else if (typeof first.value === 'object') first.value.dispose()
  }
  // One drain empties the queue unless a job threw (see `EngineLink.drainJobs`).
  while (!done && !halted) {
    const jobs = link.drainJobs()
    if (jobs.error === undefined) break
    onGuestError(jobs.error)
  }
}

/** An exception reached the top of a guest call (a job, a timer, the kernel itself). */
function onGuestError(error: QuickJSHandle): void {
  if (halted) {
    error.dispose()
    return
  }
  const text = describe(error)
  error.dispose()
  finishRun(DoneStatus.EXCEPTION, text)
}

function describe(error: QuickJSHandle): string {
  try {
    const result = vm.callFunction(kernel.describe, vm.undefined, error)
    if (result.error !== undefined) {
      result.error.dispose()
      return 'Uncaught exception (it could not be described)'
    }
    const text = vm.typeof(result.value) === 'string' ? vm.getString(result.value) : 'Uncaught exception'
    result.value.dispose()
    return text
  } catch {
    return 'Uncaught exception (it could not be described)'
  }
}

function flush(): void {
  if (done || outbox.length === 0) return
  const entries = outbox
  outbox = []
  outboxUnits = 0
  try {
    sendCalls(callBatchText(entries), outboxFirstId)
  } catch (error) {
    finishRun(DoneStatus.EXCEPTION, `InternalError: tool calls could not be sent: ${engineFailure(error)}`)
  }
}

/** Hand a batch to the host: through the call slot when it can take it, else as a message. */
function sendCalls(text: string, firstId: number): void {
  if (callSlot?.offer(text, firstId, posted) !== true) post({ k: 'calls-json', t: text })
}

/**
 * A binding call: the arguments stay the guest's JSON text (the host parses and checks them), so
 * the worker neither parses nor clones them. A call made while none is outstanding goes at once.
 */
function hostCall(name: string, argsJson: string): number | string {
  if (done) return 'the run has ended'
  if (argsJson !== '') {
    const tooLarge = valueTextIssue(argsJson, `arguments for ${name}`, valueLimits)
    if (tooLarge !== undefined) return tooLarge
  }
  const id = nextCallId + 1
  const entry = callBatchEntry(id, name, argsJson)
  if (turnUnits + entry.length > maxTurnUnits) {
    return (
      `arguments for ${name} refused: this turn already made ${turnUnits} characters of tool calls ` +
      `(at most ${maxTurnUnits} per turn); await earlier calls before making more`
    )
  }
  turnUnits += entry.length
  if (outstanding === 0 && outbox.length === 0) {
    try {
      sendCalls(callBatchText([entry]), id)
    } catch (error) {
      return `arguments for ${name} could not be sent: ${engineFailure(error)}`
    }
  } else {
    if (outbox.length === 0) outboxFirstId = id
    outbox.push(entry)
    outboxUnits += entry.length
    if (outbox.length >= MAX_BATCH_CALLS || outboxUnits >= MAX_BATCH_UNITS) flush()
  }
  nextCallId = id
  outstanding += 1
  return id
}

function flushLogs(): void {
  if (logBatch.length === 0) return
  const lines = logBatch
  logBatch = []
  logBatchBytes = 0
  post({ k: 'logs', l: lines })
}

function hostLog(line: string): void {
  if (done) return
  // As the host counts it: the line's UTF-8 size plus its line break, so empty lines count too.
  const size = Buffer.byteLength(line, 'utf8') + 1
  bytes += size
  lineCount += 1
  if (lineCount > lineLimit) {
    finishRun(DoneStatus.OUTPUT_LIMIT, `output exceeded maxLogLines (${lineLimit} lines)`)
    return
  }
  if (bytes > limit) {
    finishRun(DoneStatus.OUTPUT_LIMIT, `output exceeded maxOutputBytes (${limit} bytes)`)
    return
  }
  if (eagerLeft > 0 && logBatch.length === 0) {
    eagerLeft -= 1
    post({ k: 'log', l: line })
    return
  }
  logBatch.push(line)
  logBatchBytes += size
  if (logBatch.length >= LOG_BATCH_LINES || logBatchBytes >= LOG_BATCH_BYTES) flushLogs()
}

function onTimer(id: number): void {
  const timer = timers.get(id)
  if (timer === undefined || done) return
  if (!timer.repeat) timers.delete(id)
  enterGuest(() => {
    const handle = vm.newNumber(id)
    const result = vm.callFunction(kernel.fire, vm.undefined, handle)
    handle.dispose()
    return result
  })
  pumpReplies()
}

/** Settle a batch of replies, given as the JSON text of `[id, status, a, b, …]`. */
function settle(batchJson: string): void {
  enterGuest(() => {
    const result = link.callWithString(kernel.settle, batchJson)
    if (result.error === undefined) outstanding = Math.max(0, outstanding - result.value)
    return result
  })
}

/** Settle replies from the slot, blocking briefly while the program only waits for them. */
function pumpReplies(): void {
  if (slot === undefined || pumping) return
  pumping = true
  try {
    while (!done && !halted) {
      const batch = slot.take()
      if (batch !== undefined) {
        settle(batch)
        continue
      }
      if (outstanding === 0 || blockedMs >= blockBudgetMs) return
      const since = performance.now()
      const arrived = slot.wait(WAIT_WINDOW_MS)
      blockedMs += performance.now() - since
      if (!arrived) return
    }
  } finally {
    pumping = false
  }
}

function startRun(message: {
  code?: unknown
  names?: unknown
  limit?: unknown
  lines?: unknown
  nodes?: unknown
  depth?: unknown
  reads?: unknown
}): void {
  if (started) return
  started = true
  posted = 0
  valueLimits = readValueLimits(message)
  limit = typeof message.limit === 'number' ? message.limit : 0
  if (typeof message.lines === 'number') lineLimit = message.lines
  if (typeof message.code !== 'string' || typeof message.names !== 'string') {
    finishRun(DoneStatus.EXCEPTION, 'malformed run request')
    return
  }
  const { code, names } = message
  const replayReads = typeof message.reads === 'string' ? message.reads : ''
  enterGuest(() => {
    const namesText = vm.newString(names)
    const readsText = vm.newString(replayReads)
    const installed = vm.callFunction(kernel.install, vm.undefined, namesText, readsText)
    namesText.dispose()
    readsText.dispose()
    if (installed.error !== undefined) {
      installed.error.dispose()
      finishRun(DoneStatus.EXCEPTION, 'malformed binding names')
      return undefined
    }
    installed.value.dispose()
    const program = vm.evalCode(code, 'run_code.ts')
    if (program.error !== undefined) {
      finishRun(DoneStatus.EXCEPTION, describe(program.error))
      return undefined
    }
    const ran = vm.callFunction(kernel.run, vm.undefined, program.value)
    program.value.dispose()
    return ran
  })
}

async function boot(): Promise<void> {
  const engine = await startEngine(data, __GUEST_KERNEL_SOURCE__, {
    call: hostCall,
    log: hostLog,
    timer(id, ms, repeat) {
      if (done) return
      const handle = repeat ? setInterval(onTimer, ms, id) : setTimeout(onTimer, ms, id)
      timers.set(id, { handle, repeat })
    },
    clearTimer(id) {
      const timer = timers.get(id)
      if (timer === undefined) return
      timers.delete(id)
      clearTimeout(timer.handle)
    },
    // Once the compute budget is spent, jobs that slip past the interrupt check (short promise
    // reactions run by the same drain) must not report an outcome of their own: the run is a
    // timeout, which the host's watchdog reports.
    done(status, payload) {
      if (!halted) finishRun(status, payload)
    },
    // Posted at once, so the host has them before the call batch that follows them.
    reads(json) {
      if (!done) post({ k: 'reads', t: json })
    },
    shouldInterrupt() {
      if (guestSince === 0 || halted) return halted
      if (guestMs + (performance.now() - guestSince) > data.computeMs) halted = true
      return halted
    },
  })
  vm = engine.vm
  kernel = engine.kernel
  link = engine.link
  warmUp(engine)
}

port.on('message', (message: { k?: unknown; r?: unknown } | null) => {
  if (message === null || typeof message !== 'object') return
  if (message.k === 'res') {
    if (Array.isArray(message.r)) settle(JSON.stringify(message.r))
  } else if (message.k === 'run') startRun(message as Parameters<typeof startRun>[0])
  // 'wake': a batch is in the slot; any message is a chance to take one.
  pumpReplies()
})

boot().then(
  () => post({ k: 'ready' }),
  (error: unknown) => {
    throw new Error(`the QuickJS engine could not start: ${(error as Error)?.message}`)
  },
)

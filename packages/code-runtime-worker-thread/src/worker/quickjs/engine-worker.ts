/**
 * The QuickJS engine's worker program (Node side of the worker thread). It is bundled with
 * esbuild into `generated/quickjs-worker-source.ts` and started with `new Worker(source,
 * { eval: true })`, like the node:vm bootstrap, so it speaks the same protocol (ready / log /
 * calls / done; run / res) and the host side stays engine-agnostic.
 *
 * The program runs in a QuickJS runtime compiled to WebAssembly: nothing of this thread's realm
 * is reachable from it. The engine sees five functions built with `newFunction`, which accept
 * and return strings and numbers only; tool arguments arrive as JSON text from the guest's
 * strict serializer and tool results go back as primitives or JSON text parsed by the guest.
 * Limits: `setMemoryLimit` (every engine allocation, ArrayBuffers included), `setMaxStackSize`,
 * and an interrupt handler that stops the engine once its busy time exceeds `computeMs` (the
 * host's watchdog then ends the run as `timeout`).
 */
import { parentPort, workerData } from 'node:worker_threads'
import type {
  QuickJSContext,
  QuickJSHandle,
  QuickJSRuntime,
  QuickJSWASMModule,
} from 'quickjs-emscripten-core'
import { DoneStatus } from '../../protocol/messages'
import type { EngineWorkerData } from './engine-worker-data'

declare const __GUEST_KERNEL_SOURCE__: string

/** What a guest entry returns: an engine call's result to check, or nothing. */
type GuestResult = ReturnType<QuickJSContext['callFunction']> | undefined
declare const require: (id: string) => unknown

const data = workerData as EngineWorkerData

// The DOM-less lib the package compiles against declares WebAssembly's types, not its values.
const WasmMemory = (
  globalThis as unknown as {
    WebAssembly: { Memory: new (descriptor: { initial: number; maximum: number }) => object }
  }
).WebAssembly.Memory

const WASM_PAGE_BYTES = 65_536
/** The variant's own initial memory (16 MiB); a smaller imported memory is refused. */
const WASM_INITIAL_PAGES = 256
/** Room above the program's cap for the engine's stack, static data and allocator slack. */
const WASM_RESERVE_BYTES = 16 * 1024 * 1024
const port = parentPort!

let runtime: QuickJSRuntime
let vm: QuickJSContext
let kernel: {
  install: QuickJSHandle
  run: QuickJSHandle
  settle: QuickJSHandle
  fire: QuickJSHandle
  describe: QuickJSHandle
}
let started = false
let done = false
/** Set once the interrupt handler stopped the engine: no guest code runs again. */
let halted = false
let limit = 0
let bytes = 0
let nextCallId = 0
let outstanding = 0
let outbox: unknown[] = []
let guestMs = 0
let guestSince = 0
const timers = new Map<number, { handle: NodeJS.Timeout; repeat: boolean }>()

function post(message: unknown): void {
  port.postMessage(message)
}

function finishRun(status: number, payload: string | undefined): void {
  if (done) return
  done = true
  let s = status
  let v = payload
  if (v !== undefined && bytes + Buffer.byteLength(v, 'utf8') > limit) {
    s = DoneStatus.OUTPUT_LIMIT
    v = `${status === DoneStatus.OK ? 'result' : 'failure message'} exceeded maxOutputBytes (${limit} bytes)`
  }
  // As in the node:vm bootstrap: process.exit() in a worker is V8's TerminateExecution, so
  // nothing runs after the completion message (the host settles on it).
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
    else first.value.dispose()
  }
  while (!done && !halted) {
    const jobs = runtime.executePendingJobs(-1)
    if (jobs.error !== undefined) onGuestError(jobs.error)
    else if (jobs.value === 0) break
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
  const calls = outbox
  outbox = []
  post({ k: 'calls', c: calls })
}

function hostCall(name: string, argsJson: string): number | string {
  if (done) return 'the run has ended'
  let args: unknown
  try {
    args = argsJson === '' ? undefined : JSON.parse(argsJson)
  } catch {
    return `arguments for ${name} could not be decoded`
  }
  const id = nextCallId + 1
  if (outstanding === 0 && outbox.length === 0) {
    try {
      post({ k: 'calls', c: [id, name, args] })
    } catch (error) {
      return `arguments for ${name} could not be sent: ${(error as Error).message}`
    }
  } else outbox.push(id, name, args)
  nextCallId = id
  outstanding += 1
  return id
}

function hostLog(line: string): void {
  if (done) return
  // Every line costs at least one byte, so empty lines cannot flood the host for free.
  bytes += Math.max(1, Buffer.byteLength(line, 'utf8'))
  if (bytes > limit) {
    finishRun(DoneStatus.OUTPUT_LIMIT, `output exceeded maxOutputBytes (${limit} bytes)`)
    return
  }
  post({ k: 'log', l: line })
}

function onTimer(id: number): void {
  const timer = timers.get(id)
  if (timer === undefined || done) return
  if (!timer.repeat) timers.delete(id)
  enterGuest(() => vm.callFunction(kernel.fire, vm.undefined, vm.newNumber(id)))
}

function toGuest(value: unknown): QuickJSHandle {
  switch (typeof value) {
    case 'string':
      return vm.newString(value)
    case 'number':
      return vm.newNumber(value)
    case 'boolean':
      return value ? vm.true : vm.false
    default:
      return value === null ? vm.null : vm.undefined
  }
}

function settle(r: unknown): void {
  if (!Array.isArray(r)) return
  enterGuest(() => {
    for (let i = 0; i + 3 < r.length && !done; i += 4) {
      if (outstanding > 0) outstanding -= 1
      const args = [r[i], r[i + 1], r[i + 2], r[i + 3]].map(toGuest)
      const result = vm.callFunction(kernel.settle, vm.undefined, ...args)
      for (const handle of args) if (handle.alive) handle.dispose()
      if (result.error !== undefined) return result
      result.value.dispose()
    }
    return undefined
  })
}

function startRun(message: { code?: unknown; names?: unknown; limit?: unknown }): void {
  if (started) return
  started = true
  limit = typeof message.limit === 'number' ? message.limit : 0
  if (typeof message.code !== 'string' || typeof message.names !== 'string') {
    finishRun(DoneStatus.EXCEPTION, 'malformed run request')
    return
  }
  const { code, names } = message
  enterGuest(() => {
    const installed = vm.callFunction(kernel.install, vm.undefined, vm.newString(names))
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

function defineHostFunctions(): QuickJSHandle {
  const host = vm.newObject()
  const fn = (name: string, impl: (...args: QuickJSHandle[]) => QuickJSHandle | undefined) => {
    const handle = vm.newFunction(name, impl)
    vm.setProp(host, name, handle)
    handle.dispose()
  }
  fn('call', (name, args) => {
    const ticket = hostCall(vm.getString(name!), vm.getString(args!))
    return typeof ticket === 'number' ? vm.newNumber(ticket) : vm.newString(ticket)
  })
  fn('log', (line) => {
    hostLog(vm.getString(line!))
    return undefined
  })
  fn('timer', (id, ms, repeat) => {
    const timerId = vm.getNumber(id!)
    const every = vm.dump(repeat!) === true
    const delay = vm.getNumber(ms!)
    if (done) return undefined
    const handle = every ? setInterval(onTimer, delay, timerId) : setTimeout(onTimer, delay, timerId)
    timers.set(timerId, { handle, repeat: every })
    return undefined
  })
  fn('clearTimer', (id) => {
    const timerId = vm.getNumber(id!)
    const timer = timers.get(timerId)
    if (timer !== undefined) {
      timers.delete(timerId)
      clearTimeout(timer.handle)
    }
    return undefined
  })
  fn('done', (status, payload) => {
    const text = vm.typeof(payload!) === 'string' ? vm.getString(payload!) : undefined
    finishRun(vm.getNumber(status!), text)
    return undefined
  })
  return host
}

async function boot(): Promise<void> {
  const core = require(data.corePath) as typeof import('quickjs-emscripten-core')
  const base = (
    require(data.variantPath) as { default: import('quickjs-emscripten-core').QuickJSSyncVariant }
  ).default
  // The engine's own allocation accounting (setMemoryLimit) counts allocations, not bytes, in
  // this build: large ArrayBuffers and strings pass it. The hard cap is the WebAssembly memory
  // itself — its maximum bounds every allocation, and the engine turns a failed grow into
  // `InternalError: out of memory`.
  const wasmMemory = new WasmMemory({
    initial: WASM_INITIAL_PAGES,
    maximum: Math.ceil((data.memoryLimitBytes + WASM_RESERVE_BYTES) / WASM_PAGE_BYTES),
  })
  const variant = core.newVariant(base, { wasmModule: data.wasmModule, wasmMemory })
  const wasm: QuickJSWASMModule = await core.newQuickJSWASMModuleFromVariant(variant)
  runtime = wasm.newRuntime()
  runtime.setMemoryLimit(data.memoryLimitBytes)
  runtime.setMaxStackSize(data.maxStackBytes)
  runtime.setInterruptHandler(() => {
    if (guestSince === 0 || halted) return halted
    if (guestMs + (performance.now() - guestSince) > data.computeMs) halted = true
    return halted
  })
  vm = runtime.newContext()
  const host = defineHostFunctions()
  const factory = vm.unwrapResult(vm.evalCode(__GUEST_KERNEL_SOURCE__, 'run_code:kernel'))
  const api = vm.unwrapResult(vm.callFunction(factory, vm.undefined, host))
  factory.dispose()
  host.dispose()
  kernel = {
    install: vm.getProp(api, 'install'),
    run: vm.getProp(api, 'run'),
    settle: vm.getProp(api, 'settle'),
    fire: vm.getProp(api, 'fire'),
    describe: vm.getProp(api, 'describeError'),
  }
  api.dispose()
}

port.on('message', (message: { k?: unknown; r?: unknown } | null) => {
  if (message === null || typeof message !== 'object') return
  if (message.k === 'res') settle(message.r)
  else if (message.k === 'run') startRun(message as Parameters<typeof startRun>[0])
})

boot().then(
  () => post({ k: 'ready' }),
  (error: unknown) => {
    throw new Error(`the QuickJS engine could not start: ${(error as Error)?.message}`)
  },
)

/**
 * Sets up the QuickJS engine inside the worker (the embedding library and the variant's
 * JavaScript glue are bundled into the worker source, so a booting worker resolves and loads
 * no module files): instantiates the host-compiled WebAssembly
 * module in a memory whose maximum is the run's hard cap, creates the run's runtime and
 * context with their limits, and evaluates the guest kernel with five host functions that take
 * and return strings and numbers only — no host object or function is otherwise handed in.
 */
import variant from '@jitl/quickjs-wasmfile-release-sync'
import {
  newVariant,
  type QuickJSContext,
  type QuickJSEmscriptenModule,
  type QuickJSHandle,
  type QuickJSRuntime,
  QuickJSWASMModule,
} from 'quickjs-emscripten-core'
import { EngineLink } from './engine-link'
import type { EngineWorkerData } from './engine-worker-data'

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

/** The worker's side of the guest kernel's host functions, plus the interrupt poll. */
export interface EngineCallbacks {
  call(name: string, argsJson: string): number | string
  log(line: string): void
  timer(id: number, ms: number, repeat: boolean): void
  clearTimer(id: number): void
  done(status: number, payload: string | undefined): void
  /** The program's clock and random reads (JSON text) since its last binding call. */
  reads(json: string): void
  /** Polled by the engine while it runs; `true` stops it with an uncatchable error. */
  shouldInterrupt(): boolean
}

/** Handles of the guest kernel's entry points (see `guest/kernel.ts`). */
export interface KernelHandles {
  readonly install: QuickJSHandle
  readonly run: QuickJSHandle
  readonly settle: QuickJSHandle
  readonly fire: QuickJSHandle
  readonly describe: QuickJSHandle
}

/** The run's engine. */
export interface Engine {
  readonly runtime: QuickJSRuntime
  readonly vm: QuickJSContext
  readonly kernel: KernelHandles
  /** The per-sub-call path: settling replies, draining jobs, and the `call` host function. */
  readonly link: EngineLink
}

function defineHostFunctions(
  vm: QuickJSContext,
  link: EngineLink,
  callbacks: EngineCallbacks,
): QuickJSHandle {
  const host = vm.newObject()
  const set = (name: string, handle: QuickJSHandle) => {
    vm.setProp(host, name, handle)
    handle.dispose()
  }
  const fn = (name: string, impl: (...args: QuickJSHandle[]) => QuickJSHandle | undefined) =>
    set(name, vm.newFunction(name, impl))
  // A tool call crosses once per sub-call, so it takes the link's direct path.
  set('call', link.newStringPairFunction('call', callbacks.call))
  fn('log', (line) => {
    callbacks.log(vm.getString(line!))
    return undefined
  })
  fn('timer', (id, ms, repeat) => {
    callbacks.timer(vm.getNumber(id!), vm.getNumber(ms!), vm.dump(repeat!) === true)
    return undefined
  })
  fn('clearTimer', (id) => {
    callbacks.clearTimer(vm.getNumber(id!))
    return undefined
  })
  fn('reads', (json) => {
    callbacks.reads(vm.getString(json!))
    return undefined
  })
  fn('done', (status, payload) => {
    const text = vm.typeof(payload!) === 'string' ? vm.getString(payload!) : undefined
    callbacks.done(vm.getNumber(status!), text)
    return undefined
  })
  return host
}

/** Boot the engine for one run and evaluate `kernelSource` (the guest kernel's factory) in it. */
export async function startEngine(
  data: EngineWorkerData,
  kernelSource: string,
  callbacks: EngineCallbacks,
): Promise<Engine> {
  // QuickJS's own accounting (setMemoryLimit) counts allocations, not their bytes, in this
  // build: large ArrayBuffers and strings pass it. The hard cap is the WebAssembly memory
  // itself — its maximum bounds every allocation, and the engine turns a failed grow into
  // `InternalError: out of memory`.
  const wasmMemory = new WasmMemory({
    initial: WASM_INITIAL_PAGES,
    maximum: Math.ceil((data.memoryLimitBytes + WASM_RESERVE_BYTES) / WASM_PAGE_BYTES),
  })
  // What `newQuickJSWASMModuleFromVariant` does, keeping the Emscripten module for the link.
  const custom = newVariant(variant, {
    ...('module' in data.wasm ? { wasmModule: data.wasm.module } : { wasmBinary: data.wasm.bytes }),
    wasmMemory,
  })
  const [loadModule, FFI] = await Promise.all([custom.importModuleLoader(), custom.importFFI()])
  const module = (await (loadModule as () => Promise<QuickJSEmscriptenModule>)()) as QuickJSEmscriptenModule
  module.type = 'sync'
  const ffi = new FFI(module)
  const wasm = new QuickJSWASMModule(module, ffi)
  const runtime = wasm.newRuntime()
  runtime.setMemoryLimit(data.memoryLimitBytes)
  runtime.setMaxStackSize(data.maxStackBytes)
  runtime.setInterruptHandler(() => callbacks.shouldInterrupt())
  const vm = runtime.newContext()
  const link = new EngineLink(module, ffi, vm, runtime)
  const host = defineHostFunctions(vm, link, callbacks)
  const factory = vm.unwrapResult(vm.evalCode(kernelSource, 'run_code:kernel'))
  const api = vm.unwrapResult(vm.callFunction(factory, vm.undefined, host))
  factory.dispose()
  host.dispose()
  const kernel: KernelHandles = {
    install: vm.getProp(api, 'install'),
    run: vm.getProp(api, 'run'),
    settle: vm.getProp(api, 'settle'),
    fire: vm.getProp(api, 'fire'),
    describe: vm.getProp(api, 'describeError'),
  }
  api.dispose()
  return { runtime, vm, kernel, link }
}

/**
 * Run the worker's side of a run once, on throwaway values, before the worker reports ready:
 * V8 compiles each function of the bundled embedding library on its first call, so without this
 * the first run of every fresh worker — the only run it ever has — pays for compiling the whole
 * call path (eval, calls into and out of the engine, the job queue, strings and numbers). Nothing
 * is left behind in the context: the program is an unnamed expression, its handles are disposed,
 * and the kernel's `settle` ignores an empty batch.
 *
 * Running hundreds of throwaway sub-calls here as well, so V8 would optimize the sub-call path
 * before the run, was measured and dropped: in fresh workers, 300 of them added ≈ 9 ms of boot
 * CPU and 1,000 sequential calls afterwards cost the same per call (≈ 20 µs of worker CPU).
 */
export function warmUp(engine: Engine): void {
  const { vm, runtime, kernel, link } = engine
  const probe = vm.newFunction('probe', (value) => vm.newNumber(vm.getNumber(value!) + 1))
  const program = vm.unwrapResult(
    vm.evalCode('(async (probe) => { await null; return JSON.stringify([probe(1), "x"]) })', 'warm-up'),
  )
  const promise = vm.unwrapResult(vm.callFunction(program, vm.undefined, probe))
  vm.unwrapResult(runtime.executePendingJobs(-1))
  const state = vm.getPromiseState(promise)
  if (state.type === 'fulfilled') {
    if (vm.typeof(state.value) === 'string') vm.getString(state.value)
    state.value.dispose()
  } else if (state.type === 'rejected') state.error.dispose()
  promise.dispose()
  program.dispose()
  probe.dispose()
  for (const result of [link.callWithString(kernel.settle, '[]'), link.drainJobs()]) {
    if (result.error !== undefined) vm.unwrapResult(result)
  }
}

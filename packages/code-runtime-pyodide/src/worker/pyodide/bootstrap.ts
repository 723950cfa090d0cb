/**
 * The Pyodide worker's program, bundled by `scripts/pyodide-worker-source.ts` (with the Python
 * kernel, `kernel.py`, inlined) into one CommonJS source started with
 * `new Worker(source, { eval: true })`, so it needs no file of its own.
 *
 * Order matters, and is the boundary's design:
 * 1. Cap WebAssembly memory growth (`memory-cap.ts`) and cut the interpreter's imports that reach
 *    Node directly (`refuse-imports.ts`): Emscripten's `system()` spawns a host shell, its
 *    sockets open real connections, `run_script` evals JavaScript and `dlopen` links new code.
 *    They are replaced before instantiation, so no path inside the interpreter reaches them.
 * 2. Boot Pyodide with `jsglobals` a bare object, so Python's `js` module reaches nothing, then
 *    cap the in-memory filesystem (`file-quota.ts`): file bytes live outside both memory caps.
 * 3. Run the Python kernel, which receives three closures over the run channel and nothing else.
 * 4. Strip the Pyodide API object (it holds the Emscripten module, its filesystem drivers —
 *    NODEFS reads the host disk — and package loading), unregister the `js`/`pyodide_js` modules.
 * 5. Lock the realm (`lock-realm.ts`).
 * Only then does the worker report `ready`; it runs exactly one program and exits.
 *
 * Boot from a memory snapshot: started with `makeSnapshot`, the worker boots a bare interpreter
 * after step 1 (so the snapshot comes from an interpreter whose imports were already refused),
 * posts `makeMemorySnapshot()` and exits, before any kernel, lockdown or program. A run worker
 * waits for the host's `boot` message and, given snapshot bytes, restores the interpreter from
 * them: the module is still instantiated through the hooked `WebAssembly.instantiate`, so the
 * refusals are in place before any restored Python code runs; steps 2–5 then run as after a
 * plain boot. The maker also posts the interpreter's compiled `WebAssembly.Module`, which the
 * boot message hands on: a run worker instantiates it (through the same hook) instead of
 * compiling the 10 MB of bytes again, and reuses the machine code the maker and earlier runs
 * compiled (a boot takes about a third of the CPU of one that compiles its own).
 */
import { parentPort as maybePort, workerData } from 'node:worker_threads'
import { DoneStatus } from '@dsh/tools-codemode/runtime-kit'
import type { PyodideAPI } from 'pyodide'
import type { HostPost, WorkerPost } from '../../protocol/messages'
import { CALL_LIMITS } from '../../run/call-limits'
import { BLOCKED_MODULES } from './boundary'
import { type GrowableFileSystem, growFilesInPlace } from './file-growth'
import { capFileStorage, ENOSPC, type FileSystem } from './file-quota'
import { createInterpreterMemory } from './interpreter-memory'
import { lockRealm } from './lock-realm'
import { bufferBytes, cappedGrow } from './memory-cap'
import { refuseImports } from './refuse-imports'
import { createRunChannel } from './run-channel'
import type { PyodideWorkerData } from './worker-data'

/** The kernel's Python text, inlined by the generate script from `kernel.py`. */
declare const __PYODIDE_KERNEL_SOURCE__: string
/** The program's stdout/stderr stream (Python), inlined from `log-stream.py`; the kernel uses it. */
declare const __PYODIDE_LOG_STREAM_SOURCE__: string

// The DOM-less lib the package compiles against declares WebAssembly's types, not its values.
interface WasmGlobal {
  instantiate(source: unknown, imports?: unknown): Promise<unknown>
  Memory: { prototype: { grow(this: object, pages: number): number } }
}

const parentPort = maybePort!
const data = workerData as PyodideWorkerData
// Captured before the realm is locked: the lockdown deletes `process` and `Buffer`.
const exit = process.exit.bind(process) as (code: number) => void
const byteLength = Buffer.byteLength
const utf8Length = (text: string): number => byteLength(text, 'utf8')
const send = (message: WorkerPost, transfer?: ArrayBuffer[]): void =>
  parentPort.postMessage(message, transfer)
const wasm = (globalThis as unknown as { WebAssembly: WasmGlobal }).WebAssembly
// Arguments the channel refuses are answered here, as the host's answer would be (see below).
let refuseCall: (id: number, name: string, message: string) => void = () => {}
const channel = createRunChannel({
  send,
  exit,
  utf8Length,
  maxArgumentChars: CALL_LIMITS.maxArgumentChars,
  refuse: (id, name, message) => refuseCall(id, name, message),
})
const later = setImmediate
const discard = (): void => {}
/** A raw writer for fd 1 and 2 that keeps nothing: every byte is accepted and dropped. */
const FD_SINK = { isatty: false, write: (buffer: Uint8Array): number => buffer.length }
const fatal = (): void => channel.done(DoneStatus.EXCEPTION, 'the interpreter stopped after a fatal error')

process.on('unhandledRejection', () => {})
// A fatal interpreter error surfaces here; the thrown value is never read (it may be hostile).
process.on('uncaughtException', fatal)

// 1. The memory cap and the refused imports, both locked in place. WebAssembly memory and file
// bytes share the interpreter's part of maxMemoryMb.
const account = createInterpreterMemory(data.interpreterLimitBytes)
Object.defineProperty(wasm.Memory.prototype, 'grow', {
  value: cappedGrow(wasm.Memory.prototype.grow, account),
  writable: false,
  configurable: false,
})
const instantiate = wasm.instantiate
let instantiations = 0
// The interpreter's compiled module: the snapshot maker keeps the one it compiled (and posts it
// with the snapshot); a run worker is handed it in the boot message and instantiates it instead
// of compiling the bytes again. Only code is shared (an instance gets its own memory and
// imports); V8 shares a module's compiled functions between the threads holding it, so a run
// worker skips recompiling what the maker's boot and earlier runs already ran.
let compiled: object | null = null
// Leaving the interpreter (os._exit, a fatal signal, abort()) ends the run, in this same turn.
const onInterpreterExit = (status: number): void =>
  channel.done(DoneStatus.EXCEPTION, `the program ended the interpreter (exit status ${status})`)
Object.defineProperty(wasm, 'instantiate', {
  value: function instantiateRefusing(source: unknown, imports?: unknown) {
    refuseImports(imports, onInterpreterExit)
    instantiations += 1
    // The first instantiation is the interpreter's own (dynamic linking is refused above).
    if (instantiations !== 1) return instantiate.call(wasm, source, imports)
    const module = compiled
    if (module !== null && !data.makeSnapshot)
      return instantiate.call(wasm, module, imports).then((instance) => ({ module, instance }))
    return instantiate.call(wasm, source, imports).then((result) => {
      if (data.makeSnapshot) compiled = (result as { module: object }).module
      return result
    })
  },
  writable: false,
  configurable: false,
})

type LoadPyodide = (options: Record<string, unknown>) => Promise<PyodideAPI>
/** The Pyodide API plus its boot options, the internal hook a fatal error calls and the Emscripten module's heap view. */
type Interpreter = PyodideAPI & {
  _api: { on_fatal: () => void; config: object }
  _module: { HEAP8: { buffer: object } }
}
/** A Python callable or tuple as the kernel hands it back (a `PyProxy`). */
interface PyHandle {
  (...args: unknown[]): unknown
  get(index: number): PyHandle
  destroy(): void
}

/** The host's boot message: the snapshot's shared bytes and the compiled module, or `null`s. */
function bootMessage(): Promise<{ snapshot: SharedArrayBuffer | null; module: object | null }> {
  return new Promise((resolve) => {
    parentPort.once('message', (message: HostPost) =>
      resolve(
        message?.k === 'boot' ? { snapshot: message.s, module: message.m } : { snapshot: null, module: null },
      ),
    )
  })
}

/** Install the kernel; returns its `deliver` and `start` functions. */
function installKernel(pyodide: Interpreter) {
  pyodide.runPython(__PYODIDE_LOG_STREAM_SOURCE__)
  pyodide.runPython(__PYODIDE_KERNEL_SOURCE__)
  const install = pyodide.globals.get('__dsh_install') as PyHandle
  const pair = install(
    channel.log,
    channel.call,
    channel.done,
    BLOCKED_MODULES.join(','),
    CALL_LIMITS.maxArgumentChars,
    CALL_LIMITS.maxJsonDepth,
    channel.reads,
  ) as PyHandle
  const deliver = pair.get(0)
  const start = pair.get(1)
  pyodide.runPython('del __dsh_install, __dsh_log_stream')
  install.destroy()
  pair.destroy()
  return { deliver, start }
}

/** Step 4: nothing of the API object, nor the JavaScript bridge modules, is left to reach. */
function stripInterpreter(pyodide: Interpreter): void {
  for (const name of ['js', 'pyodide_js']) {
    try {
      pyodide.unregisterJsModule(name)
    } catch {
      // Not registered in this build.
    }
  }
  const api = pyodide as unknown as Record<PropertyKey, unknown>
  for (const key of Reflect.ownKeys(pyodide)) {
    try {
      delete api[key]
    } catch {
      // A non-configurable member stays; the object is frozen next.
    }
  }
  Object.freeze(pyodide)
}

async function main(): Promise<void> {
  const { loadPyodide } = (await import(data.moduleURL)) as { loadPyodide: LoadPyodide }
  const options = {
    indexURL: data.indexURL,
    jsglobals: Object.create(null),
    env: { HOME: '/home/pyodide' },
    packages: [],
    fullStdLib: false,
    // The program's sys.stdout and sys.stderr are the kernel's log stream. What reaches file
    // descriptors 1 and 2 directly is the interpreter's own diagnostics — a fatal error's stack
    // dump (written to fd 1) names the kernel's frames and Pyodide's files — not program output.
    stdout: discard,
    stderr: discard,
    stdin: () => null,
  }
  if (data.makeSnapshot) {
    const maker = await loadPyodide({ ...options, _makeSnapshot: true })
    const bytes = maker.makeMemorySnapshot()
    send({ k: 'snapshot', b: bytes, m: compiled }, [bytes.buffer as ArrayBuffer])
    exit(0)
    return
  }
  const boot = await bootMessage()
  const shared = boot.snapshot
  compiled = boot.module
  // A view, not a copy: the restore only reads it (into the interpreter's memory). Pyodide keeps
  // its boot options for the interpreter's lifetime, so a private copy cost every worker the
  // snapshot's size again (about 30 MiB); the shared view is dropped from those options at once,
  // so nothing in this realm can reach the bytes other workers boot from.
  const snapshot = shared instanceof SharedArrayBuffer ? new Uint8Array(shared) : undefined
  const pyodide = (await loadPyodide(
    snapshot ? { ...options, _loadSnapshot: snapshot } : options,
  )) as Interpreter
  Reflect.deleteProperty(pyodide._api.config, '_loadSnapshot')
  // The refusals are bound at instantiation: a boot that did not go through the hook must not run.
  if (instantiations === 0) throw new Error('the interpreter was not instantiated through the import hook')
  pyodide.setInterruptBuffer(new Int32Array(data.interrupt))
  // What reaches file descriptors 1 and 2 directly is dropped as it arrives. The `stdout` and
  // `stderr` load options are line-batched: Pyodide collects an unterminated line byte by byte
  // in a JavaScript array (about 9 bytes of heap per byte), so `os.write(1, b'x' * 2**20)` in a
  // loop filled the worker's heap until V8 aborted the whole host process.
  pyodide.setStdout(FD_SINK)
  pyodide.setStderr(FD_SINK)
  // The booted interpreter's memory is charged first (a restore sizes it without a grow); file
  // bytes then share what is left with later grows.
  account.wasmBytes = bufferBytes(pyodide._module.HEAP8.buffer)
  const fs = pyodide.FS as unknown as FileSystem & { filesystems: { MEMFS: GrowableFileSystem } }
  growFilesInPlace(fs.filesystems.MEMFS, account.limitBytes, () => new fs.ErrnoError(ENOSPC))
  capFileStorage(fs, account)
  // A fatal interpreter error (a crash in C code, a broken invariant) ends the run at once.
  pyodide._api.on_fatal = fatal
  const { deliver, start } = installKernel(pyodide)
  refuseCall = (id, name, message) =>
    later(() => {
      try {
        deliver(id, false, name, message)
      } catch {
        fatal()
      }
    })
  stripInterpreter(pyodide)
  lockRealm()
  parentPort.on('message', (message: HostPost) => {
    try {
      if (message.k === 'run') {
        channel.setOutputLimits(message.limit, message.lines)
        channel.setValueLimits(message)
        start(message.code, message.names, typeof message.reads === 'string' ? message.reads : '')
      } else if (message.k === 'res') {
        deliver(message.i, message.ok, message.a, message.b)
      }
    } catch {
      fatal()
    }
  })
  send({ k: 'ready', snapshot: snapshot !== undefined, module: compiled !== null })
}

main().catch((error: unknown) => {
  send({ k: 'boot-failed', m: String((error as { message?: unknown } | null)?.message) })
  exit(1)
})

/**
 * Source of the worker's JavaScript side, started with `new Worker(source, { eval: true })` so it
 * needs no file of its own (it works the same from `src` under vitest and from the tsup bundle).
 *
 * Order matters, and is the boundary's design:
 * 1. Cap WebAssembly memory growth (the interpreter's heap lives there, outside V8's heap cap),
 *    and cut the interpreter's imports that reach Node directly: Emscripten's `system()` spawns a
 *    host shell through `child_process`, its sockets open real connections, `run_script` evals
 *    JavaScript and `dlopen` links new code. Those imports are replaced before instantiation, so
 *    no path inside the interpreter (`os.system`, a raw syscall, a loaded library) reaches them.
 * 2. Boot Pyodide with `jsglobals` a bare object, so Python's `js` module reaches nothing.
 * 3. Run the Python kernel, which receives three closures over the message port and nothing else.
 * 4. Strip the Pyodide API object (it holds the Emscripten module, its filesystem drivers —
 *    NODEFS reads the host disk — and package loading), unregister the `js`/`pyodide_js` modules.
 * 5. Lock the realm: string code generation (`eval`, `Function` and its async/generator
 *    siblings reached through any `.constructor`) throws, V8's stack-trace hook cannot be set,
 *    and the globals that carry authority (`process`, `require`, `fetch`, …) are deleted.
 * Only then does the worker report `ready`; it runs exactly one program and exits.
 *
 * Boot from a memory snapshot: the same source, started with `workerData.makeSnapshot`, boots a
 * bare interpreter after step 1 (so the snapshot is taken from an interpreter whose imports were
 * already refused), posts `makeMemorySnapshot()` and exits — before any kernel, lockdown or
 * program. A run worker waits for the host's `boot` message and, given snapshot bytes, restores
 * the interpreter from them: the WebAssembly module is still instantiated through the hooked
 * `WebAssembly.instantiate` (imports are bound at instantiation, not stored in memory), so the
 * refusals of step 1 are in place before any restored Python code runs, and steps 2–5 then run
 * in the restored interpreter exactly as after a plain boot.
 */
import { KERNEL_SOURCE } from './kernel-source'

/**
 * WebAssembly imports of the interpreter replaced by a refusal (`-EPERM`, 0 or -1 to the C
 * caller): every one that reaches a shell, the network, a JavaScript `eval` or dynamic linking.
 */
export const REFUSED_IMPORTS = [
  '_dlopen_js',
  '_emscripten_dlopen_js',
  '_emscripten_system',
  '_maybe_connect_async',
  '_maybe_recvfrom_async',
  '_maybe_sendto_async',
  '__syscall_accept4',
  '__syscall_bind',
  '__syscall_connect',
  '__syscall_getpeername',
  '__syscall_getsockopt',
  '__syscall_listen',
  '__syscall_recvfrom',
  '__syscall_sendto',
  '__syscall_socket',
  'emscripten_async_run_script',
  'emscripten_run_script',
  'emscripten_run_script_int',
  'emscripten_run_script_string',
]

/** Import-name prefixes refused the same way (the WebSocket and socket-callback families). */
export const REFUSED_IMPORT_PREFIXES = ['emscripten_websocket_', 'emscripten_set_socket_']

/** Modules a program may not import (top-level names, comma-separated for the kernel). */
export const BLOCKED_MODULES = [
  '_ctypes',
  '_pyodide',
  '_pyodide_core',
  '_socket',
  'ctypes',
  'js',
  'micropip',
  'pyodide',
  'pyodide_js',
  'pyodide_http',
  'select',
  'socket',
  'ssl',
  'subprocess',
].join(',')

const BOOTSTRAP_BODY = `
const { parentPort, workerData } = require('node:worker_threads')
const send = (message) => parentPort.postMessage(message)
const exit = process.exit.bind(process)
const utf8Length = Buffer.byteLength
const SharedBuffer = SharedArrayBuffer
const { moduleURL, indexURL, interrupt, memoryLimitBytes, blocked, maxArgumentChars, makeSnapshot } = workerData

process.on('unhandledRejection', () => {})
// A fatal interpreter error surfaces here; the thrown value is never read (it may be hostile).
process.on('uncaughtException', () => done(1, 'the interpreter stopped after a fatal error'))

// 1. WebAssembly memory cap: Emscripten grows its heap through Memory#grow and turns a throw
// into a failed malloc, which Python reports as MemoryError.
const grow = WebAssembly.Memory.prototype.grow
const byteLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get
const sabByteLength = Object.getOwnPropertyDescriptor(SharedArrayBuffer.prototype, 'byteLength').get
Object.defineProperty(WebAssembly.Memory.prototype, 'grow', {
  value: function capped(pages) {
    const buffer = this.buffer
    const size = buffer instanceof SharedBuffer ? sabByteLength.call(buffer) : byteLength.call(buffer)
    if (size + pages * 65536 > memoryLimitBytes) throw new RangeError('memory cap reached')
    return grow.call(this, pages)
  },
  writable: false,
  configurable: false,
})

// Refused imports: Emscripten's syscalls return -errno (63 is EPERM in its musl table).
const refusedImports = new Set(workerData.refusedImports)
const refusedPrefixes = workerData.refusedPrefixes
const instantiate = WebAssembly.instantiate
function refuseImports(imports) {
  const env = imports && imports.env
  if (!env || typeof env !== 'object') return
  for (const name of Object.keys(env)) {
    if (refusedImports.has(name) || refusedPrefixes.some((prefix) => name.startsWith(prefix))) {
      env[name] = name.startsWith('__syscall_') || name.startsWith('_maybe_') ? () => -63 : () => 0
    }
  }
  if (typeof env._emscripten_system === 'function') env._emscripten_system = () => -1
  // Leaving the interpreter (os._exit, a fatal signal, abort()) ends the run, in this same turn.
  const exitRun = (status) => done(1, 'the program ended the interpreter (exit status ' + (status | 0) + ')')
  for (const name of ['proc_exit', 'emscripten_force_exit', '_abort_js']) {
    if (typeof env[name] === 'function') env[name] = exitRun
  }
}
let instantiations = 0
Object.defineProperty(WebAssembly, 'instantiate', {
  value: function instantiateRefusing(source, imports) {
    refuseImports(imports)
    instantiations += 1
    return instantiate.call(WebAssembly, source, imports)
  },
  writable: false,
  configurable: false,
})

let bytes = 0
let limit = Infinity
let finished = false

function done(status, payload) {
  if (finished) return
  finished = true
  send(payload === undefined || payload === null ? { k: 'done', s: status } : { k: 'done', s: status, v: String(payload) })
  exit(0)
}

// Every line costs at least one byte, so empty lines cannot flood the host for free.
function log(line) {
  if (finished) return
  const text = String(line)
  bytes += Math.max(1, utf8Length(text, 'utf8'))
  if (bytes > limit) {
    done(3, 'output exceeded maxOutputBytes (' + limit + ' bytes)')
    return
  }
  send({ k: 'log', l: text })
}

function call(id, name, text) {
  if (finished) return
  const args = String(text)
  // The kernel refuses oversized arguments first; this is the backstop for a program that
  // reached this function directly.
  if (args.length > maxArgumentChars) {
    done(1, 'a tool call carried more than ' + maxArgumentChars + ' characters of arguments')
    return
  }
  send({ k: 'call', i: id, n: String(name), a: args })
}

function lockRealm() {
  const refuse = function () {
    throw new EvalError('code generation from strings is disabled in run_code')
  }
  const constructors = [
    Function,
    Object.getPrototypeOf(async function () {}).constructor,
    Object.getPrototypeOf(function* () {}).constructor,
    Object.getPrototypeOf(async function* () {}).constructor,
  ]
  for (const ctor of constructors) {
    Object.defineProperty(ctor.prototype, 'constructor', { value: refuse, writable: false, configurable: false })
  }
  Object.defineProperty(globalThis, 'eval', { value: refuse, writable: false, configurable: false })
  Object.defineProperty(Error, 'prepareStackTrace', { value: undefined, writable: false, configurable: false })
  for (const key of ['process', 'require', 'module', 'exports', 'fetch', 'Request', 'Response', 'Headers',
    'FormData', 'WebSocket', 'EventSource', 'Buffer', 'navigator', 'importScripts', 'XMLHttpRequest',
    'global', 'crypto', 'BroadcastChannel', 'MessageChannel', 'MessagePort', 'Worker', 'SharedArrayBuffer',
    'Atomics', 'structuredClone', 'WebAssembly']) {
    try { delete globalThis[key] } catch {}
  }
  Object.freeze(Object.prototype)
}

// The host's boot message: snapshot bytes (shared, read-only by convention) or null.
function bootMessage() {
  return new Promise((resolve) => {
    parentPort.once('message', (message) => resolve(message && message.k === 'boot' ? message.s : null))
  })
}

;(async () => {
  const { loadPyodide } = await import(moduleURL)
  const options = {
    indexURL,
    jsglobals: Object.create(null),
    env: { HOME: '/home/pyodide' },
    packages: [],
    fullStdLib: false,
    stdout: log,
    stderr: log,
    stdin: () => null,
  }
  if (makeSnapshot) {
    const maker = await loadPyodide({ ...options, _makeSnapshot: true })
    const bytes = maker.makeMemorySnapshot()
    parentPort.postMessage({ k: 'snapshot', b: bytes }, [bytes.buffer])
    exit(0)
    return
  }
  const shared = await bootMessage()
  // A private copy: the restore writes it into this interpreter's memory; the shared bytes stay intact.
  const snapshot = shared instanceof SharedBuffer ? new Uint8Array(shared).slice() : undefined
  const pyodide = await loadPyodide(snapshot ? { ...options, _loadSnapshot: snapshot } : options)
  // The refusals are bound at instantiation: a boot that did not go through the hook must not run.
  if (instantiations === 0) throw new Error('the interpreter was not instantiated through the import hook')
  pyodide.setInterruptBuffer(new Int32Array(interrupt))
  // A fatal interpreter error (a crash in C code, a broken invariant) ends the run at once.
  pyodide._api.on_fatal = () => done(1, 'the interpreter stopped after a fatal error')
  pyodide.runPython(KERNEL_SOURCE)
  const install = pyodide.globals.get('__dsh_install')
  const pair = install(log, call, done, blocked, maxArgumentChars)
  const deliver = pair.get(0)
  const start = pair.get(1)
  pyodide.runPython('del __dsh_install')
  install.destroy()
  pair.destroy()
  for (const name of ['js', 'pyodide_js']) {
    try { pyodide.unregisterJsModule(name) } catch {}
  }
  for (const key of Reflect.ownKeys(pyodide)) {
    try { delete pyodide[key] } catch {}
  }
  Object.freeze(pyodide)
  lockRealm()
  parentPort.on('message', (message) => {
    try {
      if (message.k === 'run') {
        limit = message.limit
        start(message.code, message.names)
      } else if (message.k === 'res') {
        deliver(message.i, message.ok, message.a, message.b)
      }
    } catch {
      done(1, 'the interpreter stopped after a fatal error')
    }
  })
  send({ k: 'ready', snapshot: snapshot !== undefined })
})().catch((error) => {
  send({ k: 'boot-failed', m: String(error && error.message) })
  exit(1)
})
`

/** The complete worker source: the kernel's Python text as a constant, then the bootstrap. */
export const BOOTSTRAP_SOURCE = `'use strict'\nconst KERNEL_SOURCE = ${JSON.stringify(KERNEL_SOURCE)}\n${BOOTSTRAP_BODY}`

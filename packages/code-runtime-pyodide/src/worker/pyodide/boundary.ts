/**
 * What the interpreter and the program may not reach, as data: bundled into the worker, and
 * readable by the host's tests. See `bootstrap.ts` for where each list is enforced.
 */

/**
 * WebAssembly imports of the interpreter replaced by a refusal (`-EPERM`, 0 or -1 to the C
 * caller): every one that reaches a shell, the network, a JavaScript `eval` or dynamic linking.
 */
export const REFUSED_IMPORTS: readonly string[] = Object.freeze([
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
])

/** Import-name prefixes refused the same way (the WebSocket and socket-callback families). */
export const REFUSED_IMPORT_PREFIXES: readonly string[] = Object.freeze([
  'emscripten_websocket_',
  'emscripten_set_socket_',
])

/**
 * Imports that leave the interpreter (`os._exit`, a fatal signal, `abort()`): they end the run
 * in the same turn instead of tearing the worker down behind the host's back.
 */
export const EXIT_IMPORTS: readonly string[] = Object.freeze([
  'proc_exit',
  'emscripten_force_exit',
  '_abort_js',
])

/** Top-level modules a program may not import (the kernel evicts and refuses them). */
export const BLOCKED_MODULES: readonly string[] = Object.freeze([
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
])

/**
 * Globals deleted from the worker's realm before the program runs: everything that carries
 * authority (`process`, `require`, `fetch`, …) or a way to another thread or to new code.
 */
export const DELETED_GLOBALS: readonly string[] = Object.freeze([
  'process',
  'require',
  'module',
  'exports',
  'fetch',
  'Request',
  'Response',
  'Headers',
  'FormData',
  'WebSocket',
  'EventSource',
  'Buffer',
  'navigator',
  'importScripts',
  'XMLHttpRequest',
  'global',
  'crypto',
  'BroadcastChannel',
  'MessageChannel',
  'MessagePort',
  'Worker',
  'SharedArrayBuffer',
  'Atomics',
  'structuredClone',
  'WebAssembly',
])

/**
 * Host side of the QuickJS engine: locates the engine's .wasm and compiles it once per
 * process, so a booting worker only instantiates it (a compiled `WebAssembly.Module` is
 * structured-cloned to workers without recompiling).
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { EngineWorkerData } from './engine-worker-data'

/**
 * The engine's stack cap. Engine frames also use the worker's native stack (WebAssembly calls),
 * so the cap stays small enough that deep recursion is QuickJS's catchable `InternalError:
 * stack overflow` long before the worker's own stack could overflow.
 */
export const QUICKJS_MAX_STACK_BYTES = 1024 * 1024

const VARIANT = '@jitl/quickjs-wasmfile-release-sync'

// The DOM-less lib the package compiles against declares WebAssembly's types, not its values.
const WasmModule = (
  globalThis as unknown as { WebAssembly: { Module: new (bytes: Uint8Array) => WebAssembly.Module } }
).WebAssembly.Module

let bytes: Uint8Array | undefined
let compiled: WebAssembly.Module | undefined

/** The engine's `.wasm` bytes, read on first use. */
function engineBytes(): Uint8Array {
  // The variant is a direct dependency of this package, so this module's resolver finds its
  // .wasm from src under vitest and from dist in an installed tarball alike.
  bytes ??= readFileSync(createRequire(import.meta.url).resolve(`${VARIANT}/wasm`))
  return bytes
}

/** The engine's module, compiled on first use. */
function engineModule(): WebAssembly.Module {
  compiled ??= new WasmModule(engineBytes())
  return compiled
}

/** The engine's bytes in an ArrayBuffer of their own (a worker in another process compiles them). */
function engineBinary(): ArrayBuffer {
  const view = engineBytes()
  return view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength) as ArrayBuffer
}

/** The `workerData` of a QuickJS worker with these limits. */
export function quickJSWorkerData(limits: {
  readonly maxOldGenerationSizeMb: number
  readonly computeMs: number
  readonly isolation?: 'thread' | 'process'
}): EngineWorkerData {
  return {
    wasm: limits.isolation === 'process' ? { bytes: engineBinary() } : { module: engineModule() },
    memoryLimitBytes: limits.maxOldGenerationSizeMb * 1024 * 1024,
    maxStackBytes: QUICKJS_MAX_STACK_BYTES,
    computeMs: limits.computeMs,
  }
}

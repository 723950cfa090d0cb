/**
 * Host side of the QuickJS engine: locates the engine packages and compiles the engine's
 * WebAssembly module once per process, so a booting worker only instantiates it (a compiled
 * `WebAssembly.Module` is structured-cloned to workers without recompiling).
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { EngineWorkerData } from './engine-worker-data'

/**
 * The engine's stack cap. The release variant's WebAssembly stack is 5 MiB (`STACK_SIZE`); the
 * cap stays well below it so a deep recursion is QuickJS's catchable `InternalError: stack
 * overflow`, never a WebAssembly trap.
 */
export const QUICKJS_MAX_STACK_BYTES = 1024 * 1024

const VARIANT = '@jitl/quickjs-wasmfile-release-sync'

// The DOM-less lib the package compiles against declares WebAssembly's types, not its values.
const WasmModule = (
  globalThis as unknown as { WebAssembly: { Module: new (bytes: Uint8Array) => WebAssembly.Module } }
).WebAssembly.Module

let located: { corePath: string; variantPath: string; wasmModule: WebAssembly.Module } | undefined

function locate(): NonNullable<typeof located> {
  if (located === undefined) {
    const require = createRequire(import.meta.url)
    // Both are direct dependencies of this package, so this module's resolver finds them, from
    // src under vitest and from dist in an installed tarball alike.
    const corePath = require.resolve('quickjs-emscripten-core')
    const variantPath = require.resolve(VARIANT)
    const wasmPath = require.resolve(`${VARIANT}/wasm`)
    located = { corePath, variantPath, wasmModule: new WasmModule(readFileSync(wasmPath)) }
  }
  return located
}

/** The `workerData` of a QuickJS worker with these limits. */
export function quickJSWorkerData(limits: {
  readonly maxOldGenerationSizeMb: number
  readonly computeMs: number
}): EngineWorkerData {
  return {
    ...locate(),
    memoryLimitBytes: limits.maxOldGenerationSizeMb * 1024 * 1024,
    maxStackBytes: QUICKJS_MAX_STACK_BYTES,
    computeMs: limits.computeMs,
  }
}

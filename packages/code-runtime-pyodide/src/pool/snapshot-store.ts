/**
 * One Pyodide memory snapshot per process, shared by every runtime's workers. A dedicated worker
 * (the same bootstrap, in snapshot mode) boots a bare interpreter — imports already refused, no
 * kernel, no lockdown, nothing run-specific — and posts its memory; the bytes are kept in a
 * `SharedArrayBuffer` so each run worker receives them without a copy on the host thread. It also
 * posts the interpreter's compiled `WebAssembly.Module`, kept with the bytes: run workers
 * instantiate it instead of compiling their own (see `bootstrap.ts`).
 *
 * The maker is owned by the runtimes waiting for it: when the last of them is disposed while it
 * still boots, it is terminated (and the next runtime starts a new one), so no worker outlives
 * its runtimes. If making the snapshot fails, workers boot plainly.
 */
import type { SharedSnapshot, SpawnOptions } from './worker-handle'
import { spawnSnapshotMaker } from './worker-handle'

let made: SharedSnapshot | undefined
let inFlight: { readonly bytes: Promise<SharedSnapshot | undefined>; stop(): Promise<void> } | undefined
let failed = false
const holders = new Set<object>()

/**
 * The process's snapshot (bytes and compiled module), making it on first use; `undefined` when the snapshot cannot
 * be made (then every boot is a plain one). `holder` keeps the maker alive until {@link releaseSnapshot}.
 */
export function acquireSnapshot(holder: object, options: SpawnOptions): Promise<SharedSnapshot | undefined> {
  if (made !== undefined || failed) return Promise.resolve(made)
  holders.add(holder)
  if (inFlight === undefined) {
    const maker = spawnSnapshotMaker(options)
    const current = {
      bytes: maker.bytes.then((snapshot) => {
        if (inFlight === current) inFlight = undefined
        if (snapshot === undefined) {
          // Stopped by the last holder: a later runtime tries again. Otherwise it cannot be made.
          if (!maker.stopped()) failed = true
          return undefined
        }
        const shared = new SharedArrayBuffer(snapshot.bytes.byteLength)
        new Uint8Array(shared).set(snapshot.bytes)
        made = { bytes: shared, module: snapshot.module }
        return made
      }),
      stop: maker.stop,
    }
    inFlight = current
  }
  return inFlight.bytes
}

/** `holder` no longer waits: the last holder to leave stops a maker still booting, and awaits its exit. */
export async function releaseSnapshot(holder: object): Promise<void> {
  holders.delete(holder)
  if (holders.size === 0 && inFlight !== undefined) {
    const stopping = inFlight
    inFlight = undefined
    await stopping.stop()
  }
}

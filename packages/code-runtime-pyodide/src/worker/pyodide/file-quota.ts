/**
 * The cap on the in-memory filesystem. Emscripten's MEMFS keeps every file's bytes in a
 * JavaScript `Uint8Array` of its own: outside the interpreter's WebAssembly memory (so outside
 * `maxMemoryMb`'s `Memory#grow` cap) and outside V8's heap cap (array buffers are external
 * memory). Without a cap a program writing files would grow the host process until the machine
 * ran out of memory. Bytes are charged as files grow (writes, `truncate` upwards) and credited
 * when they shrink or are deleted, measured from each file's size when first seen (a file the
 * interpreter booted with gives nothing back when deleted); a write that would pass the cap fails with `ENOSPC` (an
 * `OSError` in Python). Space is never credited early: a file deleted while still open, or
 * replaced by a rename, stays charged (it can still be held), which only makes `ENOSPC` come
 * sooner. File bytes share one limit with the WebAssembly memory (`interpreter-memory.ts`).
 */
import type { InterpreterMemory } from './interpreter-memory'

/** Emscripten's `ENOSPC` (its musl table). */
export const ENOSPC = 51

/** What the cap reads of a MEMFS node. */
interface FileNode {
  usedBytes?: number
  contents?: unknown
}

type Write = (
  stream: { node: FileNode },
  buffer: unknown,
  offset: number,
  length: number,
  position: number,
  canOwn?: boolean,
) => number
type Resize = (node: FileNode, size: number) => void
type Unlink = (parent: { contents: Record<string, FileNode | undefined> }, name: string) => void

/** The parts of Emscripten's `FS` the cap replaces or reads (`pyodide.FS`). */
export interface FileSystem {
  readonly ErrnoError: new (errno: number) => Error
  readonly streams: readonly ({ node?: unknown } | null | undefined)[]
  readonly filesystems: {
    readonly MEMFS: {
      resizeFileStorage: Resize
      ops_table?: { file: { stream: { write: Write } }; dir: { node: { unlink: Unlink } } }
    }
  }
}

/**
 * Cap the bytes all MEMFS files hold, together with the WebAssembly memory, at the account's
 * limit; the account's `fileBytes` follows every charge. Throws if MEMFS has not built its
 * operation tables yet (the interpreter has not booted): an uncapped filesystem must not run.
 */
export function capFileStorage(fs: FileSystem, account: InterpreterMemory): void {
  const memfs = fs.filesystems.MEMFS
  const table = memfs.ops_table
  if (table === undefined) throw new Error('the in-memory filesystem is not initialised')
  // Per file: its size when first seen (files the interpreter booted with are not the run's to
  // spend or to give back) and the bytes charged for it since.
  const charges = new WeakMap<FileNode, { readonly baseline: number; bytes: number }>()
  const size = (node: FileNode): number => node.usedBytes ?? 0
  const chargeOf = (node: FileNode) => {
    let charge = charges.get(node)
    if (charge === undefined) {
      charge = { baseline: size(node), bytes: 0 }
      charges.set(node, charge)
    }
    return charge
  }
  /** Run `change` on `node` if growing it to `after` bytes fits; charge what it really changed. */
  const charged = <T>(node: FileNode, after: number, change: () => T): T => {
    const charge = chargeOf(node)
    const files = account.fileBytes - charge.bytes + Math.max(0, after - charge.baseline)
    if (files + account.wasmBytes > account.limitBytes) throw new fs.ErrnoError(ENOSPC)
    try {
      return change()
    } finally {
      const bytes = Math.max(0, size(node) - charge.baseline)
      account.fileBytes += bytes - charge.bytes
      charge.bytes = bytes
    }
  }
  const write = table.file.stream.write
  table.file.stream.write = (stream, buffer, offset, length, position, canOwn) =>
    charged(stream.node, Math.max(size(stream.node), position + length), () =>
      write(stream, buffer, offset, length, position, canOwn),
    )
  const resize = memfs.resizeFileStorage
  memfs.resizeFileStorage = (node, newSize) => charged(node, newSize, () => resize(node, newSize))
  const unlink = table.dir.node.unlink
  table.dir.node.unlink = (parent, name) => {
    const node = parent.contents[name]
    unlink(parent, name)
    if (node === undefined || fs.streams.some((stream) => stream?.node === node)) return
    const charge = charges.get(node)
    if (charge === undefined) return
    account.fileBytes -= charge.bytes
    charge.bytes = 0
  }
}

/**
 * The wire protocol between the host and a Pyodide run worker (structured clone, small objects).
 *
 * worker → host: `{ k: 'ready', snapshot, module }` once booted (`snapshot`: restored from the memory
 * snapshot; `module`: instantiated from the shared compiled module), or `{ k: 'boot-failed', m }`; `{ k: 'log', l }`
 * per output line, posted at once; `{ k: 'call', i, n, a }` per binding call, `a` being the
 * arguments' JSON text and `i` numbering calls from 1; `{ k: 'reads', t }` before a call whose
 * program read the clock or the random seed since its last call (JSON text of `[kind, value]`
 * pairs, for a resumable run's ledger); `{ k: 'done', s, v? }` once, with `s` a
 * `DoneStatus` (the runtime kit's).
 *
 * host → worker: `{ k: 'boot', s, m }` first (`s`: the memory snapshot's shared bytes, or null for a
 * plain boot; `m`: the interpreter's compiled `WebAssembly.Module`, or null); `{ k: 'run', code, names, limit, lines, nodes, depth, reads? }` once (the runtime kit's `RunMessage`, plus the reads a resumed run answers first); `{ k: 'res', i, ok, a, b }` per settled
 * call (`ok`: `a` is the value's JSON text; otherwise `a` the tool name and `b` the message).
 */

import type { DoneMessage, DoneStatus, ReadyMessage, RunMessage } from '@dsh/tools-codemode/runtime-kit'

export type { RunMessage }

/** One binding call, as rebuilt by the host-side validator. */
export interface WorkerCall {
  readonly id: number
  readonly name: string
  /** The arguments as JSON text (parsed by the host, so a forged message cannot smuggle a non-JSON value). */
  readonly argsText: string
}

/** An inbound message after validation: a fresh object holding only checked fields. */
export type WorkerMessage =
  | ReadyMessage
  | { readonly kind: 'boot-failed'; readonly message: string }
  | { readonly kind: 'log'; readonly line: string }
  | { readonly kind: 'call'; readonly call: WorkerCall }
  /** The program's clock and random reads since its last call (JSON text). */
  | { readonly kind: 'reads'; readonly text: string }
  | DoneMessage

/** The answer to one binding call. */
export type ReplyMessage =
  | { readonly k: 'res'; readonly i: number; readonly ok: true; readonly a: string; readonly b: null }
  | { readonly k: 'res'; readonly i: number; readonly ok: false; readonly a: string; readonly b: string }

/**
 * The message that boots a run worker: the memory snapshot's shared bytes, or `null` for a plain
 * boot, and the interpreter's compiled `WebAssembly.Module` (`null`: compile the bytes).
 */
export interface BootMessage {
  readonly k: 'boot'
  readonly s: SharedArrayBuffer | null
  readonly m: object | null
}

/** The run message, with the reads a resumed run answers first (JSON text; SPEC §13.3). */
export type ReplayRunMessage = RunMessage & { readonly reads?: string }

/** Every message the host posts to a worker. */
export type HostPost = BootMessage | ReplayRunMessage | ReplyMessage

/** Every message a worker posts, as it is sent (the host trusts none of it; see `parseWorkerMessage`). */
export type WorkerPost =
  | { readonly k: 'ready'; readonly snapshot: boolean; readonly module: boolean }
  | { readonly k: 'boot-failed'; readonly m: string }
  | { readonly k: 'snapshot'; readonly b: Uint8Array; readonly m: object | null }
  | { readonly k: 'log'; readonly l: string }
  | { readonly k: 'call'; readonly i: number; readonly n: string; readonly a: string }
  | { readonly k: 'reads'; readonly t: string }
  | { readonly k: 'done'; readonly s: DoneStatus; readonly v?: string }

/**
 * The wire protocol between the host and a run worker. Messages are small objects carried by
 * structured clone; call and reply batches are flat arrays to keep per-call allocation low.
 *
 * worker → host: `{ k: 'ready' }` once booted; `{ k: 'log', l }` per console line posted at
 * once, or `{ k: 'logs', l: [line, …] }` for a batch of lines (a worker batches a flood of lines
 * so the host is not woken once per line); `{ k: 'calls', c: [id, name, args, …] }` per binding call made while none is
 * outstanding (posted at once), otherwise per microtask batch of binding calls;
 * `{ k: 'reads', t }` (JSON text of `[kind, value]` pairs) before a call whose program read the
 * clock or random numbers since its last call (a resumable run's ledger records them);
 * `{ k: 'done', s, v? }` once, with `s` a `DoneStatus` (the runtime kit's). A QuickJS worker sends its calls as
 * text instead (`call-batch.ts`): through its call slot (`call-slot.ts`), or, when the slot
 * cannot take a batch, as `{ k: 'calls-json', t }`.
 *
 * host → worker: `{ k: 'run', code, names, limit, lines, nodes, depth }` once (the runtime kit's
 * `RunMessage`); `{ k: 'res', r: [id, status, a, b, …] }`
 * per batch of settled calls, with `status` a {@link ReplyStatus} — or, for a QuickJS worker, the
 * same batch through its reply slot (`reply-slot.ts`), followed by `{ k: 'wake' }` when the
 * worker was not blocked on the slot.
 */
import type { DoneMessage, ReadyMessage, RunMessage } from '@dsh/tools-codemode/runtime-kit'

export type { RunMessage }

/** How a binding call settled: `a` is a primitive value, JSON text, or (for errors) the tool name with `b` the message. */
export const ReplyStatus = {
  PRIMITIVE: 0,
  JSON_TEXT: 1,
  ERROR: 2,
} as const

/** One of the {@link ReplyStatus} values. */
export type ReplyStatus = (typeof ReplyStatus)[keyof typeof ReplyStatus]

/** One binding call, as rebuilt by the host-side validator. */
export type WorkerCall =
  /** Arguments as the worker's message carried them (structured-cloned), or none. */
  | { readonly id: number; readonly name: string; readonly args: unknown; readonly argsJson?: undefined }
  /** Arguments as JSON text (a batch in text form, `call-batch.ts`): the host parses them. */
  | { readonly id: number; readonly name: string; readonly argsJson: string; readonly args?: undefined }

/** An inbound message after validation: a fresh object holding only checked fields. */
export type WorkerMessage =
  | ReadyMessage
  | { readonly kind: 'log'; readonly lines: readonly string[] }
  | { readonly kind: 'calls'; readonly calls: readonly WorkerCall[] }
  /** The program's clock and random reads since its last call (JSON text; SPEC §13.3). */
  | { readonly kind: 'reads'; readonly text: string }
  | DoneMessage

/**
 * The worker's side of one run: the three functions the Python kernel receives — `log`, `call`
 * and `done` — each posting one protocol message. The worker keeps its own output count (the
 * runtime kit's `OutputMeter`) and argument-size check ahead of the host's, and `done` ends the
 * thread in the same synchronous turn it posts the completion, so nothing of the program runs
 * after its outcome is sent.
 *
 * `maxLogLines` means what it means in `@dsh/code-runtime-worker-thread`: the line that would be
 * line `maxLogLines + 1` ends the run as `output-limit`. Each posted line is a message the host
 * must receive and keep (two million `print()` calls stalled the host for seconds), so a flood
 * ends here after `maxLogLines` messages, and, as the thread exits in `done`, with no further
 * call into JavaScript per line.
 */
import {
  DoneStatus,
  OutputMeter,
  readValueLimits,
  type ValueLimits,
  valueTextIssue,
} from '@dsh/tools-codemode/runtime-kit'
import type { WorkerPost } from '../../protocol/messages'

/** What a run channel needs from the worker; captured before the realm is locked. */
export interface RunChannelPorts {
  /** Post one message to the host. */
  readonly send: (message: WorkerPost) => void
  /** End the thread (`process.exit`); nothing runs after it returns. */
  readonly exit: (code: number) => void
  /** UTF-8 size of a string (`Buffer.byteLength`). */
  readonly utf8Length: (text: string) => number
  /** Largest JSON text of one call's arguments, in UTF-16 code units. */
  readonly maxArgumentChars: number
  /**
   * Answer call `id` inside the worker as a failed call (`ToolCallError(name, message)` in the
   * program), in a later turn, as the host's answer would arrive: for arguments refused here.
   */
  readonly refuse: (id: number, name: string, message: string) => void
}

/** The functions handed to the kernel, plus the output cap set when the run starts. */
export interface RunChannel {
  /**
   * One line of program output; every line costs at least one byte. A line past
   * `maxOutputBytes` or `maxLogLines` is not posted: it ends the run as `output-limit`.
   */
  readonly log: (line: unknown) => void
  /** One binding call with its id, name and arguments' JSON text. */
  readonly call: (id: number, name: unknown, argsText: unknown) => void
  /** The run's completion: post it and end the thread (at most once). */
  readonly done: (status: DoneStatus, payload?: unknown) => void
  /** The program's clock and random reads since its last call (JSON text; SPEC §13.3). */
  readonly reads: (text: unknown) => void
  /** Set `maxOutputBytes` and `maxLogLines` (from the host's run message). */
  readonly setOutputLimits: (bytes: number, lines: number) => void
  /** Set `maxValueNodes` / `maxValueDepth` from the host's run message (`nodes`, `depth`). */
  readonly setValueLimits: (message: { readonly nodes?: unknown; readonly depth?: unknown }) => void
  /** Whether the completion was posted. */
  readonly finished: () => boolean
}

/** Create the channel of one run. */
export function createRunChannel(ports: RunChannelPorts): RunChannel {
  let finished = false
  let valueLimits: ValueLimits = readValueLimits({})
  // Every line costs at least one byte, so empty lines cannot flood the host for free.
  const lineCost = (line: string): number => Math.max(1, ports.utf8Length(line))
  let meter = new OutputMeter({ maxOutputBytes: Number.POSITIVE_INFINITY }, lineCost)
  const done = (status: DoneStatus, payload?: unknown): void => {
    if (finished) return
    finished = true
    const text = payload === undefined || payload === null ? undefined : String(payload)
    // The result is measured before it is posted: one scan of its text (the host scans again).
    const tooLarge =
      status === DoneStatus.OK && text !== undefined
        ? valueTextIssue(text, 'the result', valueLimits)
        : undefined
    ports.send(
      tooLarge !== undefined
        ? { k: 'done', s: DoneStatus.OUTPUT_LIMIT, v: tooLarge }
        : text === undefined
          ? { k: 'done', s: status }
          : { k: 'done', s: status, v: text },
    )
    ports.exit(0)
  }
  const log = (line: unknown): void => {
    if (finished) return
    const text = String(line)
    const over = meter.admitLine(text)
    if (over !== undefined) {
      done(DoneStatus.OUTPUT_LIMIT, over)
      return
    }
    ports.send({ k: 'log', l: text })
  }
  const call = (id: number, name: unknown, argsText: unknown): void => {
    if (finished) return
    const args = String(argsText)
    // The kernel refuses oversized arguments first; this is the backstop for a program that
    // reached this function directly.
    if (args.length > ports.maxArgumentChars) {
      done(
        DoneStatus.EXCEPTION,
        `a tool call carried more than ${ports.maxArgumentChars} characters of arguments`,
      )
      return
    }
    const tooLarge = valueTextIssue(args, `arguments for ${String(name)}`, valueLimits)
    if (tooLarge !== undefined) {
      ports.refuse(id, String(name), tooLarge)
      return
    }
    ports.send({ k: 'call', i: id, n: String(name), a: args })
  }
  const reads = (text: unknown): void => {
    if (!finished) ports.send({ k: 'reads', t: String(text) })
  }
  return {
    log,
    call,
    done,
    reads,
    setOutputLimits: (bytes, lines) => {
      meter = new OutputMeter({ maxOutputBytes: bytes, maxLogLines: lines }, lineCost)
    },
    setValueLimits: (message) => {
      valueLimits = readValueLimits(message)
    },
    finished: () => finished,
  }
}

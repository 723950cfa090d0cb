/**
 * The worker's side of one run: the three functions the Python kernel receives (`log`, `call`,
 * `done`), each posting one protocol message. The worker keeps its own output count and
 * argument-size check ahead of the host's, and `done` ends the thread in the same synchronous
 * turn it posts the completion, so nothing of the program runs after its outcome is sent.
 */
import { DoneStatus } from '@dsh/tools-codemode/runtime-kit'
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
}

/** The functions handed to the kernel, plus the output cap set when the run starts. */
export interface RunChannel {
  /** One line of program output; every line costs at least one byte. */
  readonly log: (line: unknown) => void
  /** One binding call with its id, name and arguments' JSON text. */
  readonly call: (id: number, name: unknown, argsText: unknown) => void
  /** The run's completion: post it and end the thread (at most once). */
  readonly done: (status: DoneStatus, payload?: unknown) => void
  /** Set `maxOutputBytes` (from the host's run message). */
  readonly setOutputLimit: (bytes: number) => void
  /** Whether the completion was posted. */
  readonly finished: () => boolean
}

/** Create the channel of one run. */
export function createRunChannel(ports: RunChannelPorts): RunChannel {
  let finished = false
  let bytes = 0
  let limit = Number.POSITIVE_INFINITY
  const done = (status: DoneStatus, payload?: unknown): void => {
    if (finished) return
    finished = true
    ports.send(
      payload === undefined || payload === null
        ? { k: 'done', s: status }
        : { k: 'done', s: status, v: String(payload) },
    )
    ports.exit(0)
  }
  const log = (line: unknown): void => {
    if (finished) return
    const text = String(line)
    // Every line costs at least one byte, so empty lines cannot flood the host for free.
    bytes += Math.max(1, ports.utf8Length(text))
    if (bytes > limit) {
      done(DoneStatus.OUTPUT_LIMIT, `output exceeded maxOutputBytes (${limit} bytes)`)
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
    ports.send({ k: 'call', i: id, n: String(name), a: args })
  }
  return {
    log,
    call,
    done,
    setOutputLimit: (value) => {
      limit = value
    },
    finished: () => finished,
  }
}

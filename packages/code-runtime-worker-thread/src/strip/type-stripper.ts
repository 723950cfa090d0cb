/**
 * Type stripping with amaro (the stripper Node itself ships), isolated in a thread of its own.
 * A hostile program can fail only its own run: its shape is pre-checked on the host
 * (`checkProgramShape`), and any internal failure of the WebAssembly stripper (a stack overflow
 * or trap that may leave its memory corrupt) retires that thread; the next program gets a fresh
 * one. The host's main thread never compiles the module nor parses a program with it.
 */
import { Worker } from 'node:worker_threads'
import { amaroPath } from './amaro-path'
import { checkProgramShape } from './program-shape'
import { STRIPPER_SOURCE } from './stripper-source'
import { wrapProgram } from './wrap-program'

/** The stripped, wrapped program, or why the source was refused. */
export type StripResult =
  | { readonly ok: true; readonly source: string }
  | { readonly ok: false; readonly message: string }

/** How long one strip may take before the thread is retired and the program refused. */
const STRIP_TIMEOUT_MS = 10_000

interface Reply {
  readonly id?: unknown
  readonly ok?: unknown
  readonly syntax?: unknown
  readonly source?: unknown
  readonly code?: unknown
  readonly message?: unknown
  readonly startLine?: unknown
  readonly startColumn?: unknown
}

interface Job {
  readonly id: number
  readonly code: string
  readonly resolve: (result: StripResult) => void
}

function describeSyntaxError(reply: Reply): string {
  const message = typeof reply.message === 'string' ? reply.message : 'the program could not be parsed'
  const kind = reply.code === 'UnsupportedSyntax' ? 'unsupported TypeScript syntax' : 'SyntaxError'
  const line = typeof reply.startLine === 'number' ? reply.startLine - 1 : undefined
  const column = typeof reply.startColumn === 'number' ? reply.startColumn : undefined
  const where =
    line !== undefined && line >= 1
      ? ` (line ${line}${column !== undefined ? `, column ${column}` : ''})`
      : ''
  return `${kind}: ${message}${where}`
}

/** Strips programs one at a time on a dedicated thread, replacing the thread after any internal failure. */
export class TypeStripper {
  readonly #queue: Job[] = []
  #worker: Worker | undefined
  #current: Job | undefined
  #timer: NodeJS.Timeout | undefined
  #nextId = 0
  #disposed = false
  /** Threads started so far (a fresh one after each internal failure). */
  #generation = 0

  /** How many stripper threads have been started (for tests: a retired thread is replaced). */
  get generation(): number {
    return this.#generation
  }

  /** Start the thread ahead of the first program (it compiles the WebAssembly module). */
  warm(): void {
    if (!this.#disposed) this.#ensureWorker()
  }

  /** Strip `code` (wrapped as an async arrow). Never rejects. */
  strip(code: string): Promise<StripResult> {
    const refusal = checkProgramShape(code)
    if (refusal !== undefined) return Promise.resolve({ ok: false, message: refusal })
    if (this.#disposed) return Promise.resolve({ ok: false, message: 'the code runtime was disposed' })
    return new Promise((resolve) => {
      this.#queue.push({ id: ++this.#nextId, code: wrapProgram(code), resolve })
      this.#pump()
    })
  }

  /** Terminate the thread and refuse queued programs. */
  async dispose(): Promise<void> {
    this.#disposed = true
    const worker = this.#worker
    this.#abandon('the code runtime was disposed')
    for (const job of this.#queue.splice(0))
      job.resolve({ ok: false, message: 'the code runtime was disposed' })
    if (worker !== undefined) await worker.terminate().catch(() => {})
  }

  #ensureWorker(): Worker {
    if (this.#worker !== undefined) return this.#worker
    const worker = new Worker(STRIPPER_SOURCE, {
      eval: true,
      env: {},
      execArgv: [],
      name: 'run_code:strip',
      workerData: { amaroPath: amaroPath() },
      resourceLimits: { maxOldGenerationSizeMb: 128 },
    })
    worker.unref()
    worker.on('message', (reply: Reply) => this.#onReply(worker, reply))
    worker.on('error', () => {})
    worker.on('exit', () => {
      if (this.#worker === worker) this.#abandon('the type stripper stopped unexpectedly')
    })
    this.#worker = worker
    this.#generation += 1
    return worker
  }

  #pump(): void {
    if (this.#current !== undefined || this.#disposed) return
    const job = this.#queue.shift()
    if (job === undefined) return
    const worker = this.#ensureWorker()
    this.#current = job
    worker.ref()
    this.#timer = setTimeout(
      () => this.#abandon('the type stripper took too long on this program'),
      STRIP_TIMEOUT_MS,
    )
    worker.postMessage({ id: job.id, code: job.code })
  }

  #onReply(worker: Worker, reply: Reply): void {
    const job = this.#current
    if (worker !== this.#worker || job === undefined || reply.id !== job.id) return
    // After an internal failure the thread exits by itself; stop routing programs to it now.
    if (reply.ok !== true && reply.syntax !== true) this.#detach()
    this.#settleCurrent(resultOf(reply))
  }

  #settleCurrent(result: StripResult): void {
    const job = this.#current
    clearTimeout(this.#timer)
    this.#current = undefined
    this.#worker?.unref()
    job?.resolve(result)
    this.#pump()
  }

  /** Forget the current thread (it is exiting or being terminated). */
  #detach(): void {
    const worker = this.#worker
    this.#worker = undefined
    if (worker !== undefined) void worker.terminate().catch(() => {})
  }

  /** Retire the thread and fail the program it was working on. */
  #abandon(message: string): void {
    this.#detach()
    if (this.#current !== undefined) this.#settleCurrent({ ok: false, message })
  }
}

function resultOf(reply: Reply): StripResult {
  if (reply.ok === true && typeof reply.source === 'string') return { ok: true, source: reply.source }
  if (reply.syntax === true) return { ok: false, message: describeSyntaxError(reply) }
  const detail = typeof reply.message === 'string' ? ` (${reply.message})` : ''
  return { ok: false, message: `the type stripper could not process this program${detail}` }
}

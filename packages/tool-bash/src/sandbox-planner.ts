import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { SHARE_ENV, Worker } from 'node:worker_threads'
import type { SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime'
import { killProcessGroup } from './kill-process-group'
import type { MovedEntry } from './protection/protection-check'
import { RemoteChild } from './remote-child'
import { PLANNER_WORKER_SOURCE } from './worker/generated/planner-worker-source'
import type {
  ChildEvent,
  PlannerFailure,
  PlannerReply,
  PlannerRequest,
  PlannerWorkerData,
} from './worker/planner-protocol'

/** A planner request that failed; `failure` says why (see {@link PlannerFailure}). */
export class PlannerError extends Error {
  constructor(
    readonly failure: PlannerFailure,
    message: string,
  ) {
    super(message)
    this.name = 'PlannerError'
  }
}

/** What the worker found after a call: what it moved aside, and whether it could check at all. */
export interface FinishReport {
  readonly moved: readonly MovedEntry[]
  readonly unverified?: string
}

/** What one sandboxed call needs planned. */
export interface PrepareRequest {
  readonly command: string
  readonly shell: string
  readonly config: Partial<SandboxRuntimeConfig>
  readonly roots: readonly string[]
  readonly maxScanEntries: number
  readonly commandId: string
}

type Settle = (reply: PlannerReply) => void

let worker: Worker | undefined
const pending = new Map<number, Settle>()
const children = new Map<number, RemoteChild>()
let nextId = 0

/** The worker is referenced exactly while a request is pending or a process it started runs. */
function holdWorker(target: Worker): void {
  if (pending.size + children.size > 0) target.ref()
  else target.unref()
}

/**
 * The process-wide planner worker, started on first use. It is referenced only while a request
 * is pending, so it never keeps the host process alive; if it dies, pending requests fail and
 * the next request starts a new one.
 */
function plannerWorker(): Worker {
  if (worker !== undefined) return worker
  const libraryUrl = pathToFileURL(
    createRequire(import.meta.url).resolve('@anthropic-ai/sandbox-runtime'),
  ).href
  const workerData: PlannerWorkerData = { libraryUrl }
  // SHARE_ENV: the library looks up bwrap, the shell and ripgrep on the host's current PATH.
  // A heap cap: a pathological tree (millions of entries) ends the worker, not the host; its
  // calls are refused.
  const started = new Worker(PLANNER_WORKER_SOURCE, {
    eval: true,
    workerData,
    env: SHARE_ENV,
    resourceLimits: { maxOldGenerationSizeMb: 256 },
  })
  started.unref()
  started.on('message', (message: PlannerReply | ChildEvent) => {
    if ('event' in message) {
      const child = children.get(message.id)
      if (message.event === 'close') children.delete(message.id)
      child?.deliver(message)
    } else {
      const settle = pending.get(message.id)
      pending.delete(message.id)
      settle?.(message)
    }
    holdWorker(started)
  })
  const fail = (reason: string) => {
    if (worker === started) worker = undefined
    for (const [id, settle] of pending) settle({ id, ok: false, failure: 'wrap', message: reason })
    pending.clear()
    // The processes it started outlive it (they are detached): end them, and their calls.
    for (const [id, child] of children) {
      if (child.pid !== undefined) killProcessGroup(child.pid, 'SIGKILL')
      child.deliver({ id, event: 'error', message: reason, started: child.pid !== undefined })
      child.deliver({ id, event: 'close', code: null, signal: 'SIGKILL' })
    }
    children.clear()
  }
  started.on('error', (error) => fail(`the sandbox planner failed: ${error.message}`))
  started.on('exit', (code) => fail(`the sandbox planner exited (code ${code})`))
  worker = started
  return started
}

function send(request: PlannerRequest): Promise<PlannerReply> {
  const target = plannerWorker()
  return new Promise((resolve) => {
    pending.set(request.id, resolve)
    holdWorker(target)
    target.postMessage(request)
  })
}

/**
 * Plan one sandboxed call in the planner worker: scan the writable roots for protected entries
 * and wrap the command with them held read-only. Returns the call's id (for {@link finishCall})
 * and the shell string that starts the sandbox. Aborting `signal` stops the scan and the wrap.
 *
 * @throws {PlannerError} `protection` (the entries could not be computed), `aborted`, or `wrap`.
 */
export async function prepareCall(
  request: PrepareRequest,
  signal: AbortSignal,
): Promise<{ readonly id: number; readonly wrapped: string }> {
  const id = ++nextId
  const onAbort = () => worker?.postMessage({ type: 'abort', id } satisfies PlannerRequest)
  signal.addEventListener('abort', onAbort, { once: true })
  try {
    const reply = await send({ type: 'prepare', id, ...request })
    if (!reply.ok) throw new PlannerError(reply.failure, reply.message)
    if (!('wrapped' in reply)) throw new PlannerError('wrap', 'unexpected planner reply')
    return { id, wrapped: reply.wrapped }
  } finally {
    signal.removeEventListener('abort', onAbort)
  }
}

/**
 * End a planned call once its process has exited (or never started): release the library's
 * per-call state and check the writable roots for protected entries it created or changed.
 * Always settles; a failure of the worker itself comes back as `unverified`.
 */
export async function finishCall(id: number): Promise<FinishReport> {
  const reply = await send({ type: 'finish', id })
  if (!reply.ok) return { moved: [], unverified: reply.message }
  if (!('moved' in reply)) return { moved: [], unverified: 'unexpected planner reply' }
  return reply.unverified === undefined
    ? { moved: reply.moved }
    : { moved: reply.moved, unverified: reply.unverified }
}

/**
 * Start a planned command in the planner worker instead of on the host thread: `spawn()` forks
 * the whole process synchronously, the one cost of a sandboxed call left on the host thread.
 * Output, exit and close come back as events on the returned child.
 */
export function spawnInPlanner(
  file: string,
  args: readonly string[],
  env: Readonly<Record<string, string>>,
  cwd: string,
): RemoteChild {
  const target = plannerWorker()
  const id = ++nextId
  const child = new RemoteChild(
    (bytes) => target.postMessage({ type: 'ack', id, bytes } satisfies PlannerRequest),
    () => target.postMessage({ type: 'destroy-pipes', id } satisfies PlannerRequest),
  )
  children.set(id, child)
  holdWorker(target)
  target.postMessage({ type: 'spawn', id, file, args, env, cwd } satisfies PlannerRequest)
  return child
}

/**
 * The node:vm worker's privileged side (the bundle entry; `scripts/node-vm-worker-source.ts`
 * turns it into the CommonJS program started with `new Worker(source, { eval: true })`, so it
 * needs no file on disk).
 *
 * It boots a fresh `vm` context with string and wasm code generation disabled, evaluates the
 * kernel (`kernel.ts`, inlined as `__NODE_VM_KERNEL_SOURCE__`) in it, reports `ready`, then
 * waits for exactly one `run` message. Program effects reach this side only through the
 * kernel's host functions, which accept primitives (and clone the program's call arguments),
 * return primitives, and never throw into the context. After the completion message the worker
 * exits by itself; the host terminates it as well.
 */
import { createContext, runInContext, Script } from 'node:vm'
import { parentPort } from 'node:worker_threads'
import { jsonValueIssue, readValueLimits, valueLimitMessage } from '@dsh/tools-codemode/runtime-kit'
import { CallOutbox } from './call-outbox'
import { completionMessage, forEachReply, readRunRequest } from './host-messages'
import type { NodeVmHost, NodeVmKernel } from './kernel'
import { LogAccount } from './log-account'

declare const __NODE_VM_KERNEL_SOURCE__: string

const hostPort = parentPort!
const post = (message: unknown): void => hostPort.postMessage(message)

// Neither handler touches the value it is given: it may be the program's object, and reading a
// property, converting it to a string or inspecting it would run program code (a getter, a
// toString, a 'nodejs.util.inspect.custom' hook handed the privileged realm's inspect) outside
// the kernel's guard. With a listener in place Node itself never inspects the value either.
process.on('unhandledRejection', () => {})
process.on('uncaughtException', () => {
  try {
    finishRun(1, 'internal worker error: an exception escaped the program guard')
  } catch {}
  try {
    process.exit(1)
  } catch {}
})

let started = false
let done = false
let valueLimits = readValueLimits({})
const logs = new LogAccount({ post, endOfTurn: (callback) => setImmediate(callback) })
const calls = new CallOutbox({
  post,
  endOfMicrotasks: queueMicrotask,
  beforePost: () => logs.flush(),
  clone: structuredClone,
  // The copy is the worker's own plain data: measuring it runs no program code.
  check: (name, copy) => {
    const issue = jsonValueIssue(copy, {
      maxNodes: valueLimits.maxValueNodes,
      maxDepth: valueLimits.maxValueDepth,
    })
    if (issue !== 'maxNodes' && issue !== 'maxDepth') return undefined
    return valueLimitMessage(`arguments for ${name}`, issue, valueLimits)
  },
})
const timers = new Map<number, { readonly handle: NodeJS.Timeout; readonly repeat: boolean }>()

const host: NodeVmHost = {
  call(name, args) {
    try {
      return done ? 'the run has ended' : calls.call(name, args)
    } catch {
      return 'the call could not be sent'
    }
  },
  log(line) {
    try {
      if (done) return
      const failure = logs.add(typeof line === 'string' ? line : '[unprintable]')
      if (failure !== undefined) finishRun(3, failure)
    } catch {}
  },
  timer(id, ms, repeat) {
    try {
      if (done || typeof id !== 'number' || typeof ms !== 'number') return
      const handle = repeat === true ? setInterval(onTimer, ms, id) : setTimeout(onTimer, ms, id)
      timers.set(id, { handle, repeat: repeat === true })
    } catch {}
  },
  clearTimer(id) {
    try {
      const timer = timers.get(id)
      if (timer === undefined) return
      timers.delete(id)
      clearTimeout(timer.handle)
    } catch {}
  },
  done(status, payload) {
    try {
      finishRun(status, payload)
    } catch {}
  },
  // Posted at once, so the host has them before the call batch that follows them.
  reads(json) {
    try {
      if (!done && typeof json === 'string') post({ k: 'reads', t: json })
    } catch {}
  },
}

const context = createContext(Object.create(null), {
  name: 'run_code',
  codeGeneration: { strings: false, wasm: false },
})
const createKernel = runInContext(__NODE_VM_KERNEL_SOURCE__, context, { filename: 'run_code:kernel' }) as (
  host: NodeVmHost,
) => NodeVmKernel
const kernel = createKernel(host)

function onTimer(id: number): void {
  const timer = timers.get(id)
  if (timer === undefined || done) return
  if (!timer.repeat) timers.delete(id)
  kernel.fire(id)
}

function finishRun(status: unknown, payload: unknown): void {
  if (done) return
  done = true
  calls.close()
  logs.close()
  const message = completionMessage(status, payload, logs.bytes, logs.byteLimit, valueLimits)
  // The host settles a completed run on this message without waiting for the thread's exit, so
  // nothing may run after it: in a worker, process.exit() calls V8's TerminateExecution, and no
  // JavaScript (program code, microtask, timer, 'exit' listener — there is none) runs again.
  try {
    logs.flush()
  } catch {}
  post(message)
  process.exit(0)
}

function startRun(message: Record<string, unknown>): void {
  if (started) return
  started = true
  const request = readRunRequest(message)
  logs.limit(request.byteLimit, request.lineLimit)
  valueLimits = request.valueLimits
  if (!request.ok) {
    finishRun(1, request.message)
    return
  }
  try {
    kernel.install(request.names, typeof message['reads'] === 'string' ? message['reads'] : '')
  } catch {
    finishRun(1, 'malformed binding names')
    return
  }
  let script: Script
  try {
    script = new Script(request.code, {
      filename: 'run_code.ts',
      importModuleDynamically: (() => {
        throw kernel.denyImport()
      }) as never,
    })
  } catch (error) {
    const text = (error as { message?: unknown } | null)?.message
    finishRun(1, 'SyntaxError: ' + (typeof text === 'string' ? text : 'the program could not be compiled'))
    return
  }
  let program: unknown
  try {
    program = script.runInContext(context, { displayErrors: false })
  } catch (error) {
    finishRun(1, kernel.describeError(error))
    return
  }
  kernel.run(program)
}

hostPort.on('message', (message: unknown) => {
  if (message === null || typeof message !== 'object') return
  const record = message as Record<string, unknown>
  if (record['k'] === 'res') {
    forEachReply(
      record['r'],
      () => calls.answered(),
      (id, status, a, b) => kernel.settle(id, status, a, b),
    )
  } else if (record['k'] === 'run') startRun(record)
})

post({ k: 'ready' })

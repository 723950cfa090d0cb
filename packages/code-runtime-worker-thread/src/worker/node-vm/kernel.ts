/**
 * The node:vm engine's in-context kernel: evaluated inside the program's fresh `vm` context
 * before the program (bundled by `scripts/node-vm-worker-source.ts`), so every function it
 * builds (bindings, console, timers, `ToolCallError`) belongs to that context and leads to no
 * constructor outside it.
 *
 * The worker's host functions stay in this closure, where the program cannot reach them; they
 * take and return primitives only (plus the program's own argument values, which the worker
 * clones), and anything they throw is swallowed with a binding-less `catch`. Intrinsics are
 * captured when the bundle is evaluated (`../quickjs/guest/intrinsics`, shared with the QuickJS
 * guest, as are console formatting and the strict result serializer), so later tampering with
 * globals or prototypes cannot redirect the kernel.
 */
import { createConsole } from '../quickjs/guest/console'
import { describeError, formatLine } from '../quickjs/guest/format'
import { descriptor, intrinsics as I } from '../quickjs/guest/intrinsics'
import { installReads, type ReadJournal } from '../quickjs/guest/nondeterminism'
import { serialize } from '../quickjs/guest/serialize'
import { checkTimerCallback, type Pending, type Timer, timerDelay } from '../quickjs/guest/timer-args'
import { createToolCallErrorClass, settleReply } from '../quickjs/guest/tool-call-error'
import { createToolsObject } from '../quickjs/guest/tools-object'

/** The worker's functions the kernel calls (privileged realm; primitives in and out). */
export interface NodeVmHost {
  /** Start a binding call; returns its id, or why it could not be sent. */
  readonly call: (name: string, args: unknown) => number | string
  readonly log: (line: string) => void
  readonly timer: (id: number, ms: number, repeat: boolean) => void
  readonly clearTimer: (id: number) => void
  readonly done: (status: number, payload: string | undefined) => void
  /** The program's clock and random reads since its last call (JSON text; `nondeterminism.ts`). */
  readonly reads: (json: string) => void
}

/** What the worker calls on the kernel. */
export interface NodeVmKernel {
  /**
   * Define the frozen `tools` global from the JSON text of the binding names; with `readsJson`
   * (the reads a resumed run answers first, `''` for none), also record the program's clock and
   * random reads (the worker always passes it).
   */
  install(namesJson: string, readsJson?: string): void
  /** Start the compiled program (an async function) and report its completion once. */
  run(program: unknown): void
  /** Settle one binding call: `status` is a `ReplyStatus`, `a`/`b` primitives. */
  settle(id: number, status: number, a: unknown, b: unknown): void
  /** Fire a program timer. */
  fire(id: number): void
  /** `Name: message` for error-like values; never throws. */
  describeError(error: unknown): string
  /** The error `import()` rejects with, built in the program's realm. */
  denyImport(): TypeError
}

/** The global object the kernel prepares: the context's own, or a stand-in in unit tests. */
export type KernelGlobal = Record<string, unknown>

function defineGlobal(global: KernelGlobal, name: string, value: unknown): void {
  I.defineProperty(global, name, descriptor(value, false, false))
}

/**
 * Remove the ambient capabilities a program must not have from `global`, and fix its `Error`
 * (the context's `Error`, read before any program runs) so no stack is ever formatted.
 */
export function removeAmbientCapabilities(global: KernelGlobal): void {
  delete global['WebAssembly']
  delete global['SharedArrayBuffer']
  delete global['console']
  // Their callbacks run from the engine's own job queue, outside every kernel try/catch: a throw
  // there reaches the worker's uncaught-exception path, which is privileged code. Programs get
  // neither (WeakMap and WeakSet, which run no callbacks, stay).
  delete global['FinalizationRegistry']
  delete global['WeakRef']
  const atomics = global['Atomics'] as Record<string, unknown> | undefined
  if (typeof atomics === 'object') {
    delete atomics['wait']
    delete atomics['waitAsync']
  }
  // Node formats error stacks in the privileged realm, and a formatting failure (a Symbol 'name',
  // a stack overflow inside the formatter) would throw an error object from that realm into the
  // program. With a non-numeric stackTraceLimit V8 captures no stack at all, so the formatter is
  // never called; errors inside programs have no 'stack'.
  const ErrorCtor = global['Error'] as object
  for (const name of ['stackTraceLimit', 'prepareStackTrace', 'captureStackTrace']) {
    I.defineProperty(ErrorCtor, name, descriptor(undefined, false, false))
  }
  defineGlobal(global, 'Error', ErrorCtor)
}

/** Build the kernel in a fresh context: strip its ambient capabilities, then install the globals. */
export function createKernel(host: NodeVmHost): NodeVmKernel {
  const global = globalThis as unknown as KernelGlobal
  removeAmbientCapabilities(global)
  return installKernel(host, global)
}

/**
 * Define the program's globals (`ToolCallError`, `console`, timers; `tools` on
 * {@link NodeVmKernel.install}) on `global` and return the kernel the worker drives.
 */
export function installKernel(host: NodeVmHost, global: KernelGlobal): NodeVmKernel {
  // Read once: the host object belongs to the privileged realm and is never handed on.
  const {
    call: hostCall,
    log: hostLog,
    timer: hostTimer,
    clearTimer: hostClearTimer,
    done: hostDone,
    reads: hostReads,
  } = host

  const ToolCallError = createToolCallErrorClass()
  defineGlobal(global, 'ToolCallError', ToolCallError)

  let finished = false
  const finish = (status: number, payload: string | undefined): void => {
    if (finished) return
    finished = true
    try {
      hostDone(status, payload)
    } catch {}
  }

  const emit = (args: unknown[]): void => {
    const line = formatLine(args)
    try {
      hostLog(line)
    } catch {}
  }
  defineGlobal(global, 'console', createConsole(emit))

  const timers: Record<number, Timer> = I.create(null)
  let nextTimer = 0
  const schedule = (callback: unknown, delay: unknown, rest: unknown[], repeat: boolean): number => {
    checkTimerCallback(callback)
    const ms = timerDelay(delay)
    const id = ++nextTimer
    timers[id] = I.freeze({ __proto__: null, callback: callback as Timer['callback'], rest, repeat })
    try {
      hostTimer(id, ms, repeat)
    } catch {}
    return id
  }
  const cancel = (id: unknown): void => {
    if (typeof id !== 'number' || timers[id] === undefined) return
    delete timers[id]
    try {
      hostClearTimer(id)
    } catch {}
  }
  defineGlobal(
    global,
    'setTimeout',
    function setTimeout(callback: unknown, delay: unknown, ...rest: unknown[]) {
      return schedule(callback, delay, rest, false)
    },
  )
  defineGlobal(
    global,
    'setInterval',
    function setInterval(callback: unknown, delay: unknown, ...rest: unknown[]) {
      return schedule(callback, delay, rest, true)
    },
  )
  defineGlobal(global, 'clearTimeout', function clearTimeout(id: unknown) {
    cancel(id)
  })
  defineGlobal(global, 'clearInterval', function clearInterval(id: unknown) {
    cancel(id)
  })

  const pending: Record<number, Pending> = I.create(null)
  let reads: ReadJournal | undefined
  const callTool = (name: string, args: unknown): Promise<unknown> => {
    // Every read made before this call reaches the host before the call does.
    reads?.flush()
    let ticket: number | string
    try {
      ticket = hostCall(name, args)
    } catch {
      ticket = 'the call could not be sent'
    }
    if (typeof ticket === 'number') {
      const id = ticket
      return new I.Promise((resolve, reject) => {
        pending[id] = I.freeze({ __proto__: null, resolve, reject }) as Pending
      })
    }
    const reason = typeof ticket === 'string' ? ticket : 'the call could not be sent'
    return I.apply(I.promiseReject, I.Promise, [new ToolCallError(name, reason)]) as Promise<unknown>
  }

  const complete = (value: unknown): void => {
    if (value === undefined) {
      finish(0, undefined)
      return
    }
    let json: ReturnType<typeof serialize>
    try {
      json = serialize(value, 'the result is not JSON')
    } catch (error) {
      // A getter on the result threw while it was read.
      finish(2, 'the result could not be serialized: ' + describeError(error))
      return
    }
    if (typeof json === 'string') finish(0, json)
    else finish(2, json.invalid)
  }

  return I.freeze({
    __proto__: null,
    install(namesJson: string, readsJson?: string): void {
      defineGlobal(
        global,
        'tools',
        createToolsObject(I.JSONParse(namesJson) as unknown[], callTool, ToolCallError),
      )
      if (typeof readsJson === 'string') reads = installReads(readsJson, (json) => hostReads(json))
    },
    run(program: unknown): void {
      let outcome: Promise<unknown>
      try {
        if (typeof program !== 'function') {
          finish(1, 'the program did not compile to a function')
          return
        }
        outcome = I.apply(I.promiseResolve, I.Promise, [program()]) as Promise<unknown>
      } catch (error) {
        finish(1, describeError(error))
        return
      }
      I.apply(I.promiseThen, outcome, [complete, (error: unknown) => finish(1, describeError(error))])
    },
    settle(id: number, status: number, a: unknown, b: unknown): void {
      const entry = pending[id]
      if (entry === undefined) return
      delete pending[id]
      settleReply(entry, status, a, b, ToolCallError)
    },
    fire(id: number): void {
      const timer = timers[id]
      if (timer === undefined || finished) return
      if (!timer.repeat) delete timers[id]
      try {
        I.apply(timer.callback, undefined, timer.rest)
      } catch (error) {
        finish(1, describeError(error))
      }
    },
    describeError,
    denyImport(): TypeError {
      return new I.TypeError('import() is not available in run_code programs')
    },
  } as NodeVmKernel)
}

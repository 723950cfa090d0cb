/**
 * The guest kernel: evaluated inside the QuickJS engine before the program, so every function it
 * builds (the `tools` bindings, `console`, timers, `ToolCallError`) belongs to the engine and
 * leads to nothing outside it. The worker hands it five engine functions that take and return
 * strings and numbers only; they stay in this closure. Tool arguments leave as JSON text made
 * by the strict serializer, tool results come back as primitives or JSON text parsed here.
 */
import { createConsole } from './console'
import { describeError, formatLine } from './format'
import { descriptor, intrinsics as I } from './intrinsics'
import { installReads, type ReadJournal } from './nondeterminism'
import { serialize } from './serialize'
import { checkTimerCallback, type Pending, type Timer, timerDelay } from './timer-args'
import { createToolCallErrorClass, settleReply } from './tool-call-error'
import { createToolsObject } from './tools-object'

/** The worker's functions, as the engine sees them (JSON text and numbers only). */
export interface GuestHost {
  /** Start a call; returns its id, or why it could not be sent. Empty `argsJson` means `undefined`. */
  call(name: string, argsJson: string): number | string
  log(line: string): void
  timer(id: number, ms: number, repeat: boolean): void
  clearTimer(id: number): void
  done(status: number, payload: string | undefined): void
  /** The program's clock and random reads since the last call (JSON text, `nondeterminism.ts`). */
  reads(json: string): void
}

/** What the worker calls on the kernel. */
export interface GuestKernel {
  /** Install the bindings, and the reads to answer first (JSON text, `''` for none). */
  install(namesJson: string, readsJson: string): void
  run(program: unknown): void
  /**
   * Settle a batch of calls given as the JSON text of `[id, status, a, b, …]` (one engine call
   * and one string handle per batch, however many replies it holds); returns how many replies
   * it held, 0 for text that is not such an array.
   */
  settle(batchJson: string): number
  fire(id: number): void
  describeError(error: unknown): string
}

const G = globalThis as unknown as Record<string, unknown>

/**
 * Timers a program may have pending at once. Each one is a Node timer in the worker, on its heap
 * and outside the engine's memory cap; no program needs more.
 */
export const MAX_PENDING_TIMERS = 10_000

function defineGlobal(name: string, value: unknown): void {
  I.defineProperty(G, name, descriptor(value, false, false))
}

/** Build the kernel and the program's globals. Called once per engine context. */
export function createKernel(host: GuestHost): GuestKernel {
  // Shared memory and blocking waits are not offered to programs.
  delete G['SharedArrayBuffer']
  delete G['Atomics']

  const ToolCallError = createToolCallErrorClass()
  defineGlobal('ToolCallError', ToolCallError)

  let finished = false
  const finish = (status: number, payload: string | undefined): void => {
    if (finished) return
    finished = true
    host.done(status, payload)
  }

  const emit = (args: unknown[]): void => host.log(formatLine(args))
  defineGlobal('console', createConsole(emit))

  const timers: Record<number, Timer> = I.create(null)
  let nextTimer = 0
  let pendingTimers = 0
  const schedule = (callback: unknown, delay: unknown, rest: unknown[], repeat: boolean): number => {
    checkTimerCallback(callback)
    if (pendingTimers >= MAX_PENDING_TIMERS) {
      throw new I.RangeError('too many pending timers: at most ' + MAX_PENDING_TIMERS + ' at once')
    }
    pendingTimers++
    const ms = timerDelay(delay)
    const id = ++nextTimer
    timers[id] = { callback: callback as Timer['callback'], rest, repeat }
    host.timer(id, ms, repeat)
    return id
  }
  const cancel = (id: unknown): void => {
    if (typeof id !== 'number' || timers[id] === undefined) return
    delete timers[id]
    pendingTimers--
    host.clearTimer(id)
  }
  defineGlobal('setTimeout', function setTimeout(callback: unknown, delay: unknown, ...rest: unknown[]) {
    return schedule(callback, delay, rest, false)
  })
  defineGlobal('setInterval', function setInterval(callback: unknown, delay: unknown, ...rest: unknown[]) {
    return schedule(callback, delay, rest, true)
  })
  defineGlobal('clearTimeout', function clearTimeout(id: unknown) {
    cancel(id)
  })
  defineGlobal('clearInterval', function clearInterval(id: unknown) {
    cancel(id)
  })

  const pending: Record<number, Pending> = I.create(null)
  // One executor for every call's promise, instead of a closure made per call: the engine runs
  // an executor synchronously inside `new Promise`, so `captured` is the new promise's own
  // resolving functions when it is read right after.
  let captured: Pending | undefined
  const capture = (resolve: Pending['resolve'], reject: Pending['reject']): void => {
    captured = { resolve, reject }
  }
  let reads: ReadJournal | undefined
  const callTool = (name: string, args: unknown): Promise<unknown> => {
    // Every read made before this call reaches the host before the call does.
    reads?.flush()
    let ticket: number | string
    if (args === undefined) ticket = host.call(name, '')
    else {
      const json = serialize(args, 'arguments for ' + name + ' are not JSON')
      ticket = typeof json === 'string' ? host.call(name, json) : json.invalid
    }
    if (typeof ticket === 'number') {
      const promise = new I.Promise(capture)
      pending[ticket] = captured as Pending
      captured = undefined
      return promise
    }
    return I.apply(I.promiseReject, I.Promise, [new ToolCallError(name, ticket)]) as Promise<unknown>
  }

  const complete = (value: unknown): void => {
    let json: ReturnType<typeof serialize> | undefined
    try {
      json = value === undefined ? undefined : serialize(value, 'the result is not JSON')
    } catch (error) {
      // The serializer reads the result, which runs the program's getters and Proxy traps (its
      // own or inherited from a patched prototype). A throw there must end the run now: inside
      // this `then` callback it would only reject a promise nobody awaits, and the run would
      // wait for `maxWallMs`.
      finish(2, 'the result could not be serialized: ' + describeError(error))
      return
    }
    if (json === undefined || typeof json === 'string') finish(0, json)
    else finish(2, json.invalid)
  }

  function settleOne(id: number, status: number, a: unknown, b: unknown): void {
    const entry = pending[id]
    if (entry === undefined) return
    delete pending[id]
    settleReply(entry, status, a, b, ToolCallError)
  }

  return I.freeze({
    install(namesJson: string, readsJson: string): void {
      defineGlobal('tools', createToolsObject(I.JSONParse(namesJson) as unknown[], callTool, ToolCallError))
      reads = installReads(typeof readsJson === 'string' ? readsJson : '', (json) => host.reads(json))
    },
    run(program: unknown): void {
      let outcome: Promise<unknown>
      try {
        if (typeof program !== 'function') throw new I.TypeError('the program did not compile to a function')
        outcome = I.apply(I.promiseResolve, I.Promise, [program()]) as Promise<unknown>
      } catch (error) {
        finish(1, describeError(error))
        return
      }
      I.apply(I.promiseThen, outcome, [complete, (error: unknown) => finish(1, describeError(error))])
    },
    settle(batchJson: string): number {
      let batch: unknown
      try {
        batch = I.JSONParse(batchJson)
      } catch {
        return 0
      }
      if (!I.isArray(batch)) return 0
      const replies = batch as unknown[]
      let count = 0
      for (let i = 0; i + 3 < replies.length; i += 4) {
        count += 1
        settleOne(replies[i] as number, replies[i + 1] as number, replies[i + 2], replies[i + 3])
      }
      return count
    },
    fire(id: number): void {
      const timer = timers[id]
      if (timer === undefined || finished) return
      if (!timer.repeat) {
        delete timers[id]
        pendingTimers--
      }
      try {
        I.apply(timer.callback, undefined, timer.rest)
      } catch (error) {
        finish(1, describeError(error))
      }
    },
    describeError,
  })
}

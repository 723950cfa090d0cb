import { SERIALIZE_SOURCE } from './serialize-source'

/**
 * Source of the in-context kernel: code evaluated inside the program's fresh `vm` context
 * before the program, so every function it builds (bindings, console, timers, ToolCallError)
 * belongs to that context and leads to no constructor outside it.
 *
 * It evaluates to a factory taking the worker's host functions. Those stay in closures the
 * program cannot reach; they take and return primitives only (plus the program's own argument
 * values, which are copied), and anything they throw is swallowed with a binding-less `catch`.
 * Intrinsics are captured before the program runs, so later tampering with globals or
 * prototypes cannot redirect the kernel.
 */
export const KERNEL_SOURCE = `(function createKernel(hostCall, hostLog, hostTimer, hostClearTimer, hostDone) {
  'use strict'
  const G = globalThis
  const create = Object.create, defineProperty = Object.defineProperty, freeze = Object.freeze
  const getPrototypeOf = Object.getPrototypeOf, keys = Object.keys, hasOwn = Object.hasOwn
  const ObjectProto = Object.prototype, ArrayProto = Array.prototype
  const isArray = Array.isArray, apply = Reflect.apply
  const JSONParse = JSON.parse, JSONStringify = JSON.stringify
  const PromiseCtor = Promise, promiseThen = Promise.prototype.then
  const promiseResolve = Promise.resolve, promiseReject = Promise.reject
  const ErrorCtor = Error, TypeErrorCtor = TypeError
  const SetCtor = Set, setHas = Set.prototype.has, setAdd = Set.prototype.add, setDelete = Set.prototype.delete
  const MapProto = Map.prototype, SetProto = Set.prototype, DateProto = Date.prototype
  const mapSize = Object.getOwnPropertyDescriptor(MapProto, 'size').get
  const setSize = Object.getOwnPropertyDescriptor(SetProto, 'size').get
  const mapEntries = MapProto.entries, setValues = SetProto.values, iterNext = new Map().entries().next
  const dateToISO = DateProto.toISOString
  const arrayJoin = ArrayProto.join, regexpExec = RegExp.prototype.exec
  const StringCtor = String, symbolToString = Symbol.prototype.toString
  const identifierPattern = /^[A-Za-z_$][A-Za-z0-9_$]*$/

  // ── ambient capabilities the program must not have ──
  delete G.WebAssembly
  delete G.SharedArrayBuffer
  delete G.console
  // Their callbacks run from the engine's own job queue, outside every kernel try/catch: a
  // throw there reaches the worker's uncaught-exception path, which is privileged code. Programs
  // get neither (WeakMap and WeakSet, which run no callbacks, stay).
  delete G.FinalizationRegistry
  delete G.WeakRef
  if (typeof Atomics === 'object') { delete Atomics.wait; delete Atomics.waitAsync }
  // Node formats error stacks in the privileged realm, and a formatting failure (a Symbol
  // 'name', a stack overflow inside the formatter) would throw an error object from that realm
  // into the program. With a non-numeric stackTraceLimit V8 captures no stack at all, so the
  // formatter is never called; errors inside programs have no 'stack'.
  defineProperty(ErrorCtor, 'stackTraceLimit', { __proto__: null, value: undefined, writable: false, enumerable: false, configurable: false })
  defineProperty(ErrorCtor, 'prepareStackTrace', { __proto__: null, value: undefined, writable: false, enumerable: false, configurable: false })
  defineProperty(ErrorCtor, 'captureStackTrace', { __proto__: null, value: undefined, writable: false, enumerable: false, configurable: false })
  defineProperty(G, 'Error', { __proto__: null, value: ErrorCtor, writable: false, enumerable: false, configurable: false })

  function defineGlobal(name, value) {
    defineProperty(G, name, { __proto__: null, value, writable: false, enumerable: false, configurable: false })
  }

  // ── ToolCallError ──
  class ToolCallError extends ErrorCtor {
    constructor(toolName, message) {
      super(message)
      defineProperty(this, 'toolName', { __proto__: null, value: StringCtor(toolName), writable: true, enumerable: true, configurable: true })
    }
  }
  defineProperty(ToolCallError.prototype, 'name', { __proto__: null, value: 'ToolCallError', writable: true, enumerable: false, configurable: true })
  defineGlobal('ToolCallError', ToolCallError)

  // ── completion ──
  let finished = false
  function finish(status, payload) {
    if (finished) return
    finished = true
    try { hostDone(status, payload) } catch {}
  }

  // ── formatting (console lines and error descriptions) ──
  function inspect(value, depth, seen) {
    switch (typeof value) {
      case 'string': return depth === 0 ? value : JSONStringify(value)
      case 'number': return value === 0 && 1 / value < 0 ? '-0' : StringCtor(value)
      case 'bigint': return StringCtor(value) + 'n'
      case 'symbol': return apply(symbolToString, value, [])
      case 'undefined': return 'undefined'
      case 'boolean': return value ? 'true' : 'false'
      case 'function': return '[Function: ' + (typeof value.name === 'string' && value.name !== '' ? value.name : '(anonymous)') + ']'
    }
    if (value === null) return 'null'
    if (apply(setHas, seen, [value])) return '[Circular]'
    const proto = getPrototypeOf(value)
    if (proto === DateProto) { try { return apply(dateToISO, value, []) } catch { return 'Invalid Date' } }
    if (value instanceof ErrorCtor) return describeError(value)
    if (depth > 2) return isArray(value) ? '[Array]' : '[Object]'
    apply(setAdd, seen, [value])
    const parts = []
    let n = 0
    let open = '{ ', close = ' }'
    if (isArray(value)) {
      open = '[ '; close = ' ]'
      const len = value.length
      for (let i = 0; i < len && i < 100; i++) parts[n++] = hasOwn(value, i) ? inspect(value[i], depth + 1, seen) : '<empty>'
      if (len > 100) parts[n++] = '... ' + (len - 100) + ' more items'
    } else if (proto === MapProto) {
      open = 'Map(' + apply(mapSize, value, []) + ') { '
      const it = apply(mapEntries, value, [])
      for (let step = apply(iterNext, it, []); !step.done && n < 100; step = apply(iterNext, it, [])) {
        parts[n++] = inspect(step.value[0], depth + 1, seen) + ' => ' + inspect(step.value[1], depth + 1, seen)
      }
    } else if (proto === SetProto) {
      open = 'Set(' + apply(setSize, value, []) + ') { '
      const it = apply(setValues, value, [])
      for (let step = apply(iterNext, it, []); !step.done && n < 100; step = apply(iterNext, it, [])) {
        parts[n++] = inspect(step.value, depth + 1, seen)
      }
    } else {
      const names = keys(value)
      for (let i = 0; i < names.length && i < 100; i++) {
        const key = names[i]
        const label = apply(regexpExec, identifierPattern, [key]) ? key : JSONStringify(key)
        parts[n++] = label + ': ' + inspect(value[key], depth + 1, seen)
      }
      if (names.length > 100) parts[n++] = '... ' + (names.length - 100) + ' more properties'
    }
    apply(setDelete, seen, [value])
    if (n === 0) return open === '[ ' ? '[]' : open === '{ ' ? '{}' : open + '}'
    return open + apply(arrayJoin, parts, [', ']) + close
  }

  function formatLine(args) {
    const seen = new SetCtor()
    const parts = []
    let n = 0
    let start = 0
    const first = args[0]
    if (typeof first === 'string' && args.length > 1) {
      let out = '', used = 1
      for (let i = 0; i < first.length; i++) {
        const c = first[i]
        if (c !== '%' || i + 1 >= first.length) { out += c; continue }
        const spec = first[i + 1]
        if (spec === '%') { out += '%'; i++; continue }
        if (used >= args.length || 'sdifjoOc'.indexOf(spec) < 0) { out += c; continue }
        const arg = args[used++]
        i++
        if (spec === 's') out += typeof arg === 'string' ? arg : inspect(arg, 1, seen)
        else if (spec === 'd' || spec === 'i') out += typeof arg === 'bigint' ? StringCtor(arg) + 'n' : inspect(spec === 'i' ? Math.trunc(+arg) : +arg, 1, seen)
        else if (spec === 'f') out += inspect(+arg, 1, seen)
        else if (spec === 'j') { try { out += JSONStringify(arg) } catch { out += '[Circular]' } }
        else if (spec === 'c') {}
        else out += inspect(arg, 1, seen)
      }
      parts[n++] = out
      start = used
    }
    for (let i = start; i < args.length; i++) parts[n++] = inspect(args[i], 0, seen)
    return apply(arrayJoin, parts, [' '])
  }

  function describeError(error) {
    try {
      if (error !== null && (typeof error === 'object' || typeof error === 'function')) {
        const message = error.message
        if (typeof message === 'string') {
          const name = error.name
          let text = typeof name === 'string' && name !== '' ? name : 'Error'
          if (message !== '') text += ': ' + message
          return text
        }
      }
      return 'Uncaught ' + inspect(error, 1, new SetCtor())
    } catch {
      return 'Uncaught exception (it could not be described)'
    }
  }

  // ── console ──
  function emit(args) {
    const line = formatLine(args)
    try { hostLog(line) } catch {}
  }
  const console = {
    log(...args) { emit(args) },
    info(...args) { emit(args) },
    warn(...args) { emit(args) },
    error(...args) { emit(args) },
    debug(...args) { emit(args) },
  }
  defineGlobal('console', freeze(console))

  // ── timers ──
  const timers = create(null)
  let nextTimer = 0
  function schedule(callback, delay, rest, repeat) {
    if (typeof callback !== 'function') throw new TypeErrorCtor('The "callback" argument must be of type function')
    let ms = +delay
    if (!(ms >= 1) || ms > 2147483647) ms = 1
    const id = ++nextTimer
    timers[id] = { __proto__: null, callback, rest, repeat }
    try { hostTimer(id, ms, repeat) } catch {}
    return id
  }
  function cancel(id) {
    if (typeof id !== 'number' || timers[id] === undefined) return
    delete timers[id]
    try { hostClearTimer(id) } catch {}
  }
  defineGlobal('setTimeout', function setTimeout(callback, delay, ...rest) { return schedule(callback, delay, rest, false) })
  defineGlobal('setInterval', function setInterval(callback, delay, ...rest) { return schedule(callback, delay, rest, true) })
  defineGlobal('clearTimeout', function clearTimeout(id) { cancel(id) })
  defineGlobal('clearInterval', function clearInterval(id) { cancel(id) })
  function fire(id) {
    const timer = timers[id]
    if (timer === undefined || finished) return
    if (!timer.repeat) delete timers[id]
    try { apply(timer.callback, undefined, timer.rest) } catch (error) { finish(1, describeError(error)) }
  }

  // ── bindings ──
  const pending = create(null)
  function callTool(name, args) {
    let ticket
    try { ticket = hostCall(name, args) } catch { ticket = 'the call could not be sent' }
    if (typeof ticket === 'number') {
      return new PromiseCtor((resolve, reject) => { pending[ticket] = { __proto__: null, resolve, reject } })
    }
    return apply(promiseReject, PromiseCtor, [new ToolCallError(name, typeof ticket === 'string' ? ticket : 'the call could not be sent')])
  }
  function settle(id, status, a, b) {
    const entry = pending[id]
    if (entry === undefined) return
    delete pending[id]
    if (status === 0) return entry.resolve(a)
    if (status === 1) {
      let value
      try { value = JSONParse(a) } catch { return entry.reject(new ToolCallError('', 'the tool result could not be decoded')) }
      return entry.resolve(value)
    }
    entry.reject(new ToolCallError(a, b))
  }
  function install(namesJson) {
    const names = JSONParse(namesJson)
    const tools = create(null)
    for (let i = 0; i < names.length; i++) {
      const name = StringCtor(names[i])
      const binding = { [name]: (args) => callTool(name, args) }[name]
      defineProperty(tools, name, { __proto__: null, value: binding, writable: false, enumerable: true, configurable: false })
    }
    defineGlobal('tools', freeze(tools))
  }

${SERIALIZE_SOURCE}
  // ── running the program ──
  function complete(value) {
    if (value === undefined) return finish(0, undefined)
    let text
    try { text = serialize(value) } catch (error) { return finish(2, 'the result could not be serialized: ' + describeError(error)) }
    if (typeof text === 'string') return finish(0, text)
    finish(2, text.invalid)
  }
  function run(program) {
    let outcome
    try {
      if (typeof program !== 'function') return finish(1, 'the program did not compile to a function')
      outcome = apply(promiseResolve, PromiseCtor, [program()])
    } catch (error) {
      return finish(1, describeError(error))
    }
    apply(promiseThen, outcome, [complete, (error) => finish(1, describeError(error))])
  }
  function denyImport() {
    return new TypeErrorCtor('import() is not available in run_code programs')
  }

  return freeze({ __proto__: null, install, run, settle, fire, describeError, denyImport })
})`

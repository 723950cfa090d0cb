/**
 * The last step before a worker reports `ready`: string code generation (`eval`, `Function` and
 * its async/generator siblings reached through any `.constructor`) throws, V8's stack-trace hook
 * cannot be set, the globals that carry authority are deleted and `Object.prototype` is frozen.
 * It changes the realm for good: only a worker calls it, never the host.
 */
import { DELETED_GLOBALS } from './boundary'

function refuse(): never {
  throw new EvalError('code generation from strings is disabled in run_code')
}

/** Lock the current realm (irreversible). */
export function lockRealm(): void {
  const constructors = [
    Function,
    Object.getPrototypeOf(async () => {}).constructor,
    Object.getPrototypeOf(function* () {}).constructor,
    Object.getPrototypeOf(async function* () {}).constructor,
  ] as const
  for (const ctor of constructors) {
    Object.defineProperty(ctor.prototype, 'constructor', {
      value: refuse,
      writable: false,
      configurable: false,
    })
  }
  Object.defineProperty(globalThis, 'eval', { value: refuse, writable: false, configurable: false })
  Object.defineProperty(Error, 'prepareStackTrace', {
    value: undefined,
    writable: false,
    configurable: false,
  })
  const globals = globalThis as unknown as Record<string, unknown>
  for (const key of DELETED_GLOBALS) {
    try {
      delete globals[key]
    } catch {
      // A non-configurable global stays; the lockdown continues.
    }
  }
  Object.freeze(Object.prototype)
}

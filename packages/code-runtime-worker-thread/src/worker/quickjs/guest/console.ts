/**
 * The program's `console`, the same in both engines' kernels: each method formats its
 * arguments into one line (`format.ts`) and hands it to the kernel's `emit`. Built in the
 * realm that evaluates the kernel, so its functions lead to no constructor outside it.
 */
import { intrinsics as I } from './intrinsics'

/** A frozen `console` whose `log`, `info`, `warn`, `error` and `debug` all call `emit` with their arguments. */
export function createConsole(emit: (args: unknown[]) => void): object {
  return I.freeze({
    log: (...args: unknown[]) => emit(args),
    info: (...args: unknown[]) => emit(args),
    warn: (...args: unknown[]) => emit(args),
    error: (...args: unknown[]) => emit(args),
    debug: (...args: unknown[]) => emit(args),
  })
}

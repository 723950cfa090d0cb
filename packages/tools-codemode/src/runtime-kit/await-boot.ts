/**
 * A worker's boot handshake, seen from the host: the worker posts a message saying it is ready
 * (or that it failed), unless it raises an `error` or exits first. The wait removes its
 * listeners when it ends, so the run that follows owns the worker's events alone.
 */

/** The events a run thread emits: a `Worker`, or a child-process stand-in with the same events. */
export interface WorkerEvents {
  on(event: 'message' | 'error' | 'exit', listener: (value: any) => void): unknown
  off(event: 'message' | 'error' | 'exit', listener: (value: any) => void): unknown
}

/** Why a boot failed. */
export interface BootFailure {
  readonly ok: false
  readonly message: string
}

/** How a boot ended: ready (with what the ready message said), or the reason it failed. */
export type BootOutcome<T> = { readonly ok: true; readonly value: T } | BootFailure

/**
 * Wait for `worker`'s boot. `classify` reads each message: an outcome ends the wait, `undefined`
 * ignores the message. An `error` event ends it as `describeError(error)`, an exit as
 * `the worker exited while booting (code N)`. Never rejects.
 */
export function awaitBoot<R>(
  worker: WorkerEvents,
  classify: (message: unknown) => R | BootFailure | undefined,
  describeError: (error: unknown) => string,
): Promise<R | BootFailure> {
  return new Promise((resolve) => {
    const end = (outcome: R | BootFailure): void => {
      worker.off('message', onMessage)
      worker.off('error', onError)
      worker.off('exit', onExit)
      resolve(outcome)
    }
    const onMessage = (message: unknown): void => {
      const outcome = classify(message)
      if (outcome !== undefined) end(outcome)
    }
    const onError = (error: unknown): void => end({ ok: false, message: describeError(error) })
    const onExit = (code: number): void =>
      end({ ok: false, message: `the worker exited while booting (code ${code})` })
    worker.on('message', onMessage)
    worker.on('error', onError)
    worker.on('exit', onExit)
  })
}

/**
 * What a code runtime leaves behind once `dispose()` settles, reported by a host script (run with
 * `spawnScript`) that has nothing else to do: a dispose that does not keep such a host alive
 * until it settles never reports, and one that leaves a worker, a process or a timer behind
 * shows it here (and keeps the host from exiting by itself).
 */

/** What {@link disposeAndReport} prints. */
export interface DisposeReport {
  /** The runtime's live, running, warm and exiting workers after `dispose()`. */
  readonly workers: readonly number[]
  /** `process.getActiveResourcesInfo()` a loop turn later, the process's own stdio (and that turn) aside. */
  readonly resources: readonly string[]
}

/** The part of a runtime {@link disposeAndReport} reads. */
export interface ReportingRuntime {
  dispose(): Promise<void>
  stats(): {
    readonly liveWorkers: number
    readonly runningWorkers: number
    readonly warmWorkers: number
    readonly exitingWorkers: number
  }
}

const TAG = 'DISPOSED '

/** In a host script: dispose `runtime`, and once that settles print a {@link DisposeReport} line. */
export function disposeAndReport(runtime: ReportingRuntime): void {
  void runtime.dispose().then(() => {
    // A handle that closed with the exit dispose awaited (a child process's) leaves the list in
    // the loop's close phase: read it one turn later, once that phase has run.
    setImmediate(() => setImmediate(() => report(runtime)))
  })
}

function report(runtime: ReportingRuntime): void {
  const { liveWorkers, runningWorkers, warmWorkers, exitingWorkers } = runtime.stats()
  const resources = process
    .getActiveResourcesInfo()
    .filter((name) => !/^(TTYWrap|PipeWrap|FSReqCallback|Immediate)$/.test(name))
  const report: DisposeReport = {
    workers: [liveWorkers, runningWorkers, warmWorkers, exitingWorkers],
    resources,
  }
  process.stdout.write(`${TAG}${JSON.stringify(report)}\n`)
}

/** The {@link DisposeReport} a host script printed, or `undefined` if it printed none. */
export function disposeReport(stdout: string): DisposeReport | undefined {
  const line = stdout.split('\n').find((entry) => entry.startsWith(TAG))
  return line === undefined ? undefined : (JSON.parse(line.slice(TAG.length)) as DisposeReport)
}

/** What the host hands a Pyodide worker at spawn (`workerData`); both sides compile against it. */
export interface PyodideWorkerData {
  /** `file:` URL of the installed `pyodide.mjs`, loaded offline. */
  readonly moduleURL: string
  /** The Pyodide package directory, with a trailing slash. */
  readonly indexURL: string
  /** Pyodide's interrupt buffer (4 bytes), shared with the host's budget watchdog. */
  readonly interrupt: SharedArrayBuffer
  /** Cap on the interpreter's WebAssembly memory and in-memory file bytes together, in bytes. */
  readonly interpreterLimitBytes: number
  /** Boot a bare interpreter, post its memory snapshot and exit, instead of running a program. */
  readonly makeSnapshot: boolean
}

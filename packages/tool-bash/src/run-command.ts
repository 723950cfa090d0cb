import { spawn } from 'node:child_process'
import type { EventEmitter } from 'node:events'
import { stat } from 'node:fs/promises'
import { ProcessTree } from '@dsh/process-tree'
import { isToolsError } from '@dsh/tools-core'
import { BashSpawnError } from './errors'
import { killProcessGroup } from './kill-process-group'
import { OutputCapture } from './output-capture'

/** Everything {@link runCommand} needs to run one shell command. */
export interface RunCommandOptions {
  /** The script passed to `bash -c`. */
  readonly command: string
  /** Absolute working directory; it must exist. */
  readonly cwd: string
  /** The complete child environment (nothing else is inherited). */
  readonly env: Readonly<Record<string, string>>
  /** Aborting kills the process group; the promise still settles only after exit. */
  readonly signal: AbortSignal
  /** The command's own budget: on expiry the group is killed and `timedOut` is set. */
  readonly timeoutMs: number
  /** Delay between SIGTERM and SIGKILL to the group. */
  readonly killGraceMs: number
  /** Byte cap of captured stdout. */
  readonly maxStdoutBytes: number
  /** Byte cap of captured stderr. */
  readonly maxStderrBytes: number
  /** The shell executable (default `bash`). */
  readonly shell?: string
  /** Sees every chunk of stdout and stderr as it arrives (progress reporting). */
  readonly onOutput?: (chunk: Buffer) => void
  /**
   * Turns the command into what is spawned, e.g. wrapped in the OS sandbox. Without it the
   * shell itself is spawned: `<shell> -c <command>`.
   */
  readonly wrap?: CommandWrapper
}

/** What {@link CommandWrapper} is asked to start. */
export interface CommandRequest {
  readonly command: string
  readonly cwd: string
  readonly env: Readonly<Record<string, string>>
  /** The shell the command is for (default `bash`). */
  readonly shell: string
  /** The call's signal: aborting it may stop the preparation. */
  readonly signal: AbortSignal
}

/** How to start one command, and what to clean up once it has exited. */
export interface SpawnPlan {
  /** The executable spawned as the process-group leader. */
  readonly file: string
  readonly args: readonly string[]
  /** The complete environment of `file`. */
  readonly env: Readonly<Record<string, string>>
  /**
   * Starts the process instead of `child_process.spawn` (detached, stdin closed, output piped):
   * the sandbox starts it off the host thread.
   */
  spawn?(cwd: string): SpawnedProcess
  /**
   * Called exactly once, after the spawned process has exited (or failed to start). A rejection
   * (e.g. the sandbox found protected entries changed) becomes the call's error.
   */
  release(): Promise<void>
}

/**
 * What {@link runCommand} uses of a started process — a `ChildProcess` has it: `pid` once
 * started, `stdout`/`stderr` emitting `'data'` Buffers (and `destroy()` to close our ends), and
 * the `spawn`, `error`, `exit` and `close` events.
 */
export interface SpawnedProcess extends EventEmitter {
  readonly pid?: number | undefined
  readonly stdout: OutputStream
  readonly stderr: OutputStream
}

/** One output stream of a {@link SpawnedProcess}. */
export interface OutputStream {
  on(event: 'data', listener: (chunk: Buffer) => void): unknown
  destroy(): void
}

/**
 * Builds the {@link SpawnPlan} of a command (see `createSandboxWrapper`).
 *
 * @throws {Error} when the command cannot be prepared; `runCommand` reports it as `BashSpawnError`.
 */
export type CommandWrapper = (request: CommandRequest) => Promise<SpawnPlan>

const directPlan = (request: CommandRequest): SpawnPlan => ({
  file: request.shell,
  args: ['-c', request.command],
  env: request.env,
  release: async () => {},
})

/** How a command ended. Produced only after the shell has exited and its pipes have closed. */
export interface CommandOutcome {
  readonly stdout: string
  readonly stderr: string
  /** The exit code, or `null` when the shell was ended by a signal (or never started). */
  readonly exitCode: number | null
  /** The signal that ended the shell, or `null`. */
  readonly signal: NodeJS.Signals | null
  /** Whether stdout or stderr lost bytes to the caps (the text carries a marker). */
  readonly truncated: boolean
  /** The command's own `timeoutMs` expired and the group was killed. */
  readonly timedOut: boolean
  /** `signal` aborted while the command ran (or before it started); the group was killed. */
  readonly aborted: boolean
}

/**
 * Run `bash -c <command>` as the leader of a new process group, with stdin closed and both
 * output streams captured under their caps.
 *
 * Termination — on abort, on the command's own timeout, and after the shell exits while
 * background jobs of its group are still alive — sends SIGTERM to the whole group, then
 * SIGKILL after `killGraceMs`. If a process that escaped the group still holds the pipes open
 * another `killGraceMs` later, the pipes are closed from our side. The promise settles on the
 * child's `close` event: never while the shell is still running.
 *
 * @throws {BashSpawnError} when the working directory is missing or the shell cannot start.
 */
export async function runCommand(options: RunCommandOptions): Promise<CommandOutcome> {
  await assertDirectory(options.cwd)
  if (options.signal.aborted) return ABORTED_BEFORE_START
  const plan = await planSpawn(options)
  // Aborted while the plan was made: nothing was started.
  if (plan === undefined) return ABORTED_BEFORE_START
  let child: SpawnedProcess
  try {
    child =
      plan.spawn?.(options.cwd) ??
      spawn(plan.file, plan.args, {
        cwd: options.cwd,
        env: plan.env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
  } catch (error) {
    // spawn() throws synchronously for some failures (E2BIG: a command past the kernel's
    // argument size limit); nothing started, so the plan is released here.
    await plan.release().catch(() => {})
    throw new BashSpawnError(`failed to start ${plan.file}: ${(error as Error).message}`, { cause: error })
  }
  const stdout = new OutputCapture(options.maxStdoutBytes)
  const stderr = new OutputCapture(options.maxStderrBytes)
  const onOutput = options.onOutput
  child.stdout.on('data', (chunk: Buffer) => {
    stdout.push(chunk)
    onOutput?.(chunk)
  })
  child.stderr.on('data', (chunk: Buffer) => {
    stderr.push(chunk)
    onOutput?.(chunk)
  })

  return new Promise<CommandOutcome>((resolve, reject) => {
    let timedOut = false
    let aborted = false
    let terminating = false
    let exited = false
    const timers: NodeJS.Timeout[] = []

    const terminate = () => {
      if (terminating || child.pid === undefined) return
      terminating = true
      const pid = child.pid
      // Descendants that left the group (a `setsid` child; the sandbox's namespace init, in a
      // session of its own — and, aborted before it armed bubblewrap's die-with-parent signal,
      // immune to the group's SIGTERM as a namespace init) are recorded while the leader lives and
      // get the same two signals by pid, after the group's, so the leader's own end is the
      // signal (a sandbox launcher would otherwise report its init's exit status).
      const strays = new ProcessTree(pid).collect()
      // Even when the group is already gone, the pipe timers are armed: a process that left
      // the group out of reach may still hold the pipes, and the call must settle regardless.
      const groupAlive = killProcessGroup(pid, 'SIGTERM')
      strays.signal('SIGTERM', { exceptGroup: pid })
      timers.push(
        setTimeout(() => {
          if (groupAlive) killProcessGroup(pid, 'SIGKILL')
          strays.collect().signal('SIGKILL', { exceptGroup: pid })
          timers.push(
            setTimeout(() => {
              child.stdout.destroy()
              child.stderr.destroy()
            }, options.killGraceMs),
          )
        }, options.killGraceMs),
      )
    }
    const onAbort = () => {
      if (exited) return
      aborted = true
      terminate()
    }
    const cleanup = () => {
      for (const timer of timers) clearTimeout(timer)
      options.signal.removeEventListener('abort', onAbort)
    }
    // The plan's resources (the sandbox's private tmp, …) go once the process is gone; the
    // promise settles after that, so nothing of the call outlives it. A release that rejects
    // (protected entries changed) turns the outcome into that error.
    const settle = (finish: () => void) => {
      cleanup()
      plan.release().then(finish, reject)
    }

    child.once('error', (error) => {
      if (child.pid !== undefined) return // a kill failure after start; 'close' still follows
      const failed = new BashSpawnError(`failed to start ${plan.file}: ${error.message}`, { cause: error })
      cleanup()
      plan.release().then(
        () => reject(failed),
        () => reject(failed),
      )
    })
    child.once('spawn', () => {
      options.signal.addEventListener('abort', onAbort, { once: true })
      if (options.signal.aborted) onAbort()
      timers.push(
        setTimeout(() => {
          if (exited) return
          timedOut = true
          terminate()
        }, options.timeoutMs),
      )
    })
    // The leader exited: reap whatever it left running in its group.
    child.once('exit', () => {
      exited = true
      terminate()
    })
    child.once('close', (exitCode: number | null, signal: NodeJS.Signals | null) => {
      const out = stdout.finish()
      const err = stderr.finish()
      settle(() =>
        resolve({
          stdout: out.text,
          stderr: err.text,
          exitCode,
          signal,
          truncated: out.droppedBytes > 0 || err.droppedBytes > 0,
          timedOut,
          aborted,
        }),
      )
    })
  })
}

const ABORTED_BEFORE_START: CommandOutcome = Object.freeze({
  stdout: '',
  stderr: '',
  exitCode: null,
  signal: null,
  truncated: false,
  timedOut: false,
  aborted: true,
})

/** The plan of the command, or `undefined` when the signal aborted while it was being made. */
async function planSpawn(options: RunCommandOptions): Promise<SpawnPlan | undefined> {
  const request: CommandRequest = {
    command: options.command,
    cwd: options.cwd,
    env: options.env,
    shell: options.shell ?? 'bash',
    signal: options.signal,
  }
  if (options.wrap === undefined) return directPlan(request)
  try {
    const plan = await options.wrap(request)
    if (!options.signal.aborted) return plan
    // Nothing ran: whatever the check after it finds was not this command's.
    await plan.release().catch(() => {})
    return undefined
  } catch (error) {
    if (options.signal.aborted) return undefined
    if (isToolsError(error)) throw error
    throw new BashSpawnError(`failed to start ${request.shell}: ${(error as Error).message}`, {
      cause: error,
    })
  }
}

async function assertDirectory(path: string): Promise<void> {
  try {
    if (!(await stat(path)).isDirectory())
      throw new BashSpawnError(`working directory is not a directory: ${path}`)
  } catch (error) {
    if (error instanceof BashSpawnError) throw error
    throw new BashSpawnError(`working directory does not exist: ${path}`, { cause: error })
  }
}

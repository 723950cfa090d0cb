import {
  defineTool,
  linkSignals,
  ToolAbortedError,
  ToolArgsError,
  type ToolDefinition,
  type ToolRunContext,
} from '@dsh/tools-core'
import { BASH_PARAMETERS, BASH_RESULT_SCHEMA, type BashArgs, type BashResult } from './bash-result'
import type { BashConfig } from './config'
import { buildEnvironment } from './environment'
import {
  bashPresentationMeta,
  presentBashCall,
  presentBashResult,
  renderBashContent,
  resolveCallWorkdir,
} from './present'
import { ProgressMeter } from './progress-meter'
import { runCommand } from './run-command'
import { startSandboxGate } from './sandbox-gate'

/** The tool's name, as the model calls it. */
export const BASH_TOOL_NAME = 'bash'

/**
 * The effective budget of one call: its `timeoutMs` clamped to `maxTimeoutMs`, or the default.
 *
 * @throws {ToolArgsError} when `timeoutMs` is below 1.
 */
export function effectiveTimeoutMs(config: BashConfig, timeoutMs: number | undefined): number {
  if (timeoutMs === undefined) return config.defaultTimeoutMs
  if (timeoutMs < 1) throw new ToolArgsError([{ path: '$.timeoutMs', message: 'must be at least 1' }])
  return Math.min(timeoutMs, config.maxTimeoutMs)
}

const budgetOf = (config: BashConfig, args: BashArgs): number => {
  try {
    return effectiveTimeoutMs(config, args.timeoutMs)
  } catch {
    return config.defaultTimeoutMs
  }
}

/** Options of {@link createBashTool} that are the host's, not the user's config. */
export interface CreateBashToolOptions {
  /** Receives the one startup warning when the sandbox is unavailable (default `console.warn`). */
  readonly warn?: (message: string) => void
  /**
   * The tool's lifetime (the plugin passes its fiber's): when it aborts, every call in flight is
   * aborted like by its own signal — its process group killed at whatever phase it is — and
   * ends `ABORTED`.
   */
  readonly lifetime?: AbortSignal
}

/**
 * Build the `bash` tool definition for a validated config. Unless `config.sandbox.enabled` is
 * false, every command runs in the OS sandbox; the sandbox probe starts here, so an unavailable
 * sandbox is reported once, at startup.
 *
 * The body runs `bash -c` in its own process group (see `runCommand`). It returns a value for
 * every run that started — non-zero exit, signal and its own timeout included — and throws only
 * when nothing could be started (`BashSpawnError`) or the arguments are out of range. When the
 * caller's signal aborts, the group is killed and the body still returns once the shell has
 * exited; the registry then reports `ABORTED`. The definition declares `timeoutMs =
 * maxTimeoutMs`, so `@dsh/tool-call-timeout-policy` enforces the ceiling as `TOOL_TIMEOUT`.
 *
 * @param config — the resolved plugin config.
 * @param options — where the startup warning goes.
 */
export function createBashTool(
  config: BashConfig,
  options: CreateBashToolOptions = {},
): ToolDefinition<BashArgs> {
  const sandboxGate = startSandboxGate(config.sandbox, [config.workdir], options.warn ?? console.warn)
  const description = [
    'Run a bash command (`bash -c`) and return its stdout, stderr and exit code.',
    `Runs in ${config.workdir} unless \`workdir\` is given; stdin is closed; only allow-listed environment variables are set.`,
    `Default budget ${config.defaultTimeoutMs}ms, at most ${config.maxTimeoutMs}ms; on expiry the whole process group is killed.`,
    `Output is capped at ${config.maxStdoutBytes} bytes (stdout) and ${config.maxStderrBytes} bytes (stderr); the middle is dropped with a marker.`,
    'Background jobs do not outlive the call.',
  ].join(' ')
  return defineTool({
    name: BASH_TOOL_NAME,
    description,
    parameters: BASH_PARAMETERS,
    timeoutMs: config.maxTimeoutMs,
    isConcurrencySafe: () => false,
    output: {
      schema: BASH_RESULT_SCHEMA,
      render: (args, value) => renderBashContent(value, budgetOf(config, args)),
      presentationMeta: (_args, value) => ({ ...bashPresentationMeta(value) }),
    },
    presentCall: (args) => presentBashCall(args, config.workdir),
    presentResult: (args, record, meta) => presentBashResult(args, record, meta),
    async execute(args, exec) {
      const lifetime = options.lifetime
      if (lifetime === undefined) return run(args, exec, exec.signal)
      const link = linkSignals(exec.signal, lifetime)
      const ended = await run(args, exec, link.signal).then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      )
      link.dispose()
      // Ended by the tool's lifetime, not by the caller: an abort, whatever the body made of it.
      if (lifetime.aborted && !exec.signal.aborted) {
        throw new ToolAbortedError('tool call aborted: the bash tool was disposed')
      }
      if ('error' in ended) throw ended.error
      return ended.value
    },
  })

  async function run(args: BashArgs, exec: ToolRunContext, signal: AbortSignal): Promise<BashResult> {
    const wrap = await untilAborted(sandboxGate(), signal)
    const meter = new ProgressMeter({
      intervalMs: config.progressIntervalMs,
      report: (update) => exec.progress(update),
    })
    const outcome = await runCommand({
      onOutput: (chunk) => meter.push(chunk),
      command: args.command,
      cwd: resolveCallWorkdir(config.workdir, args.workdir),
      env: buildEnvironment(process.env, config.envAllowList, config.env),
      signal,
      timeoutMs: effectiveTimeoutMs(config, args.timeoutMs),
      killGraceMs: config.killGraceMs,
      maxStdoutBytes: config.maxStdoutBytes,
      maxStderrBytes: config.maxStderrBytes,
      ...(wrap === undefined ? {} : { wrap }),
    })
    const value: BashResult = {
      stdout: outcome.stdout,
      stderr: outcome.stderr,
      exitCode: outcome.exitCode,
      signal: outcome.signal,
      truncated: outcome.truncated,
      timedOut: outcome.timedOut,
    }
    return value
  }
}

/** `promise`, or the signal's reason as soon as it aborts (the sandbox probe may still be running). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

/**
 * The processes of a cross-process test: each runs a TypeScript script (bundled with the
 * workspace sources it imports, see `script-command.ts`) that prints one
 * `{"event":"result","result":…}` line, and may keep running after it (a process the test kills
 * mid-run, as a crash would).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import type { ToolExecutionResult } from '@dsh/tools-core'
import { scriptCommand } from './script-command'

/** A started process and the result it printed. */
export interface ResultProcess {
  readonly result: ToolExecutionResult
  readonly child: ChildProcess
}

/** Starts `script` once per {@link start}; {@link killAll} ends whatever still runs (an `afterEach`). */
export class ResultProcesses {
  readonly #running = new Set<ChildProcess>()

  /** @param script — the path of the script every process runs. */
  constructor(private readonly script: string) {}

  /**
   * Start the script with `args`; resolves with the result it printed and its process (which
   * may still run). Rejects when it exits before printing one, with the tail of its stderr.
   */
  async start(args: readonly string[]): Promise<ResultProcess> {
    const child = spawn(process.execPath, [...(await scriptCommand(this.script)), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    this.#running.add(child)
    let stdout = ''
    let stderr = ''
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-3000)
    })
    const result = await new Promise<ToolExecutionResult>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString()
        const line = stdout.split('\n').find((candidate) => candidate.includes('"event":"result"'))
        if (line !== undefined) resolve(JSON.parse(line).result)
      })
      child.on('exit', () =>
        reject(new Error(`${args[0] ?? 'the script'} exited before its result: ${stderr}`)),
      )
    })
    return { result, child }
  }

  /** SIGKILL every process still running and wait for its exit. */
  async killAll(): Promise<void> {
    await Promise.all(
      [...this.#running].map(async (child) => {
        this.#running.delete(child)
        if (child.exitCode !== null || child.signalCode !== null) return
        const exit = once(child, 'exit')
        child.kill('SIGKILL')
        await exit
      }),
    )
  }
}

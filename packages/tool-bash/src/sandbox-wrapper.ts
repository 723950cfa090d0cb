import { randomBytes } from 'node:crypto'
import { rm } from 'node:fs/promises'
import type { SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime'
import { BashProtectionError } from './errors'
import { makePrivateTmp } from './private-tmp'
import type { CommandRequest, CommandWrapper, SpawnPlan } from './run-command'
import { DEFAULT_MAX_SCAN_ENTRIES } from './sandbox-config'
import { type FinishReport, finishCall, PlannerError, prepareCall, spawnInPlanner } from './sandbox-planner'

/** What one sandboxed command may touch. */
export interface SandboxPolicy {
  /** Directories the command may write (besides its private tmp). Always readable. */
  readonly writableRoots: readonly string[]
  /** Paths the command cannot read (hidden behind an empty mount), unless under a writable root. */
  readonly denyRead: readonly string[]
  /** `'none'`: a network namespace of its own, with no interfaces; `'host'`: the host's network. */
  readonly network: 'none' | 'host'
  /**
   * Most entries the protection scan reads in the writable roots, before and after each call;
   * past it the call is refused (default {@link DEFAULT_MAX_SCAN_ENTRIES}).
   */
  readonly maxScanEntries?: number
}

/**
 * A {@link CommandWrapper} that runs each command inside `@anthropic-ai/sandbox-runtime`'s
 * OS sandbox (bubblewrap on Linux: new user, PID, mount and — with `network: 'none'` — network
 * namespaces, a fresh `/proc`, `/` read-only, a seccomp filter against new user namespaces and
 * Unix sockets; `sandbox-exec` on macOS). Each call gets a private, writable `TMPDIR` that is
 * removed after the command exits.
 *
 * Protected entries (`PROTECTED_NAMES`, git directories) anywhere under the writable roots are
 * held read-only during the call, and a scan after it moves aside any the command created or
 * changed: the plan's `release()` then rejects with `BashProtectionError`. A scan that cannot
 * finish (too many entries, an unreadable directory) refuses the call before it starts.
 *
 * The library's set-up and both scans run in a worker thread (`sandbox-planner`), so the host's
 * event loop only sends a message and spawns the process. The library is used without
 * `SandboxManager.initialize()`: the per-call config is complete, and `initialize()` would start
 * proxy servers (needed only for per-domain network filtering) that keep the host process alive.
 *
 * @param policy — what the commands may write, read and reach.
 */
export function createSandboxWrapper(policy: SandboxPolicy): CommandWrapper {
  return async (request: CommandRequest): Promise<SpawnPlan> => {
    request.signal.throwIfAborted()
    const privateTmp = await makePrivateTmp()
    const removeTmp = () => rm(privateTmp, { recursive: true, force: true })
    let id: number
    let wrapped: string
    try {
      ;({ id, wrapped } = await prepareCall(
        {
          command: request.command,
          shell: request.shell,
          config: callConfig(policy, privateTmp),
          roots: policy.writableRoots,
          maxScanEntries: policy.maxScanEntries ?? DEFAULT_MAX_SCAN_ENTRIES,
          // Violations are attributed per call; an unguessable id keeps calls apart.
          commandId: randomBytes(16).toString('base64url'),
        },
        request.signal,
      ))
    } catch (error) {
      await removeTmp()
      if (error instanceof PlannerError && error.failure === 'protection') {
        throw new BashProtectionError(
          `the sandbox's protected entries cannot be computed: ${error.message}`,
          {
            ran: false,
          },
        )
      }
      throw error
    }
    // --norc/--noprofile: this outer shell only execs bwrap and must source nothing of the host.
    const args = ['--norc', '--noprofile', '-c', wrapped]
    const env = { ...request.env, TMPDIR: privateTmp }
    return {
      file: 'bash',
      args,
      env,
      // Started by the planner worker: the fork of spawn() stays off the host thread too.
      spawn: (cwd) => spawnInPlanner('bash', args, env, cwd),
      release: async () => {
        const [report] = await Promise.all([finishCall(id), removeTmp()])
        assertUntouched(report)
      },
    }
  }
}

function callConfig(policy: SandboxPolicy, privateTmp: string): Partial<SandboxRuntimeConfig> {
  const writable = [...policy.writableRoots, privateTmp]
  const config: Partial<SandboxRuntimeConfig> = {
    filesystem: {
      allowWrite: writable,
      // Writable roots stay readable even when they lie under a read deny (a workspace in $HOME).
      allowRead: writable,
      denyRead: [...policy.denyRead],
      // The protected entries are added by the planner, from its scan.
      denyWrite: [],
    },
  }
  // An empty allow-list without a running proxy is an empty network namespace.
  if (policy.network === 'none') config.network = { allowedDomains: [], deniedDomains: [] }
  return config
}

/** @throws {BashProtectionError} when the command created or changed protected entries, or they could not be checked. */
function assertUntouched(report: FinishReport): void {
  if (report.moved.length === 0 && report.unverified === undefined) return
  const moved = report.moved.map((entry) =>
    entry.movedTo === undefined
      ? `${entry.path} (could not be moved: ${entry.error})`
      : `${entry.path} → ${entry.movedTo}`,
  )
  const parts: string[] = []
  if (moved.length > 0) {
    parts.push(
      `the command created or changed entries that host tools run or obey; they were moved aside: ${moved.slice(0, 20).join('; ')}${moved.length > 20 ? `; and ${moved.length - 20} more` : ''}`,
    )
  }
  if (report.unverified !== undefined) {
    parts.push(`the writable roots could not be checked after the command: ${report.unverified}`)
  }
  throw new BashProtectionError(parts.join('. '), { ran: true })
}

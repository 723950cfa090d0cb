import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SandboxManager, type SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime'
import type { CommandRequest, CommandWrapper, SpawnPlan } from './run-command'
import { workspaceProtectedPaths } from './workspace-protected-paths'

/** What one sandboxed command may touch. */
export interface SandboxPolicy {
  /** Directories the command may write (besides its private tmp). Always readable. */
  readonly writableRoots: readonly string[]
  /** Paths the command cannot read (hidden behind an empty mount), unless under a writable root. */
  readonly denyRead: readonly string[]
  /** `'none'`: a network namespace of its own, with no interfaces; `'host'`: the host's network. */
  readonly network: 'none' | 'host'
}

/**
 * On every wrap the library scans `process.cwd()` — the host's, not the command's — with
 * ripgrep for git hooks, shell rc files and the like to keep read-only, 3 levels deep by default.
 * From `/` or a home directory that takes seconds per call. Unless something in this process
 * has configured the library already, a base config lowers the depth to 1; it names no network
 * and no paths, so each call's own config decides everything else.
 */
function installBaseConfig(): void {
  if (SandboxManager.getConfig() !== undefined) return
  const base = {
    // `network` is required by the type, but an entry without `allowedDomains` restricts nothing.
    network: {},
    filesystem: { denyRead: [], allowWrite: [], denyWrite: [] },
    mandatoryDenySearchDepth: 1,
  } as unknown as SandboxRuntimeConfig
  SandboxManager.updateConfig(base)
}

/**
 * A {@link CommandWrapper} that runs each command inside `@anthropic-ai/sandbox-runtime`'s
 * OS sandbox (bubblewrap on Linux: new user, PID, mount and — with `network: 'none'` — network
 * namespaces, a fresh `/proc`, `/` read-only, a seccomp filter against new user namespaces and
 * Unix sockets; `sandbox-exec` on macOS). Each call gets a private, writable `TMPDIR` that is
 * removed after the command exits. Inside the writable roots, files the host later runs or
 * obeys (git hooks and config, shell rc files, editor settings) stay read-only.
 *
 * The library is used without `SandboxManager.initialize()`: the per-call config is complete,
 * and `initialize()` would start proxy servers (needed only for per-domain network filtering)
 * that keep the host process alive.
 *
 * @param policy — what the commands may write, read and reach.
 */
export function createSandboxWrapper(policy: SandboxPolicy): CommandWrapper {
  return async (request: CommandRequest): Promise<SpawnPlan> => {
    installBaseConfig()
    const privateTmp = await mkdtemp(join(tmpdir(), 'dsh-bash-tmp-'))
    const removeTmp = () => rm(privateTmp, { recursive: true, force: true })
    try {
      const writable = [...policy.writableRoots, privateTmp]
      const protectedPaths = await Promise.all(policy.writableRoots.map(workspaceProtectedPaths))
      const config: Partial<SandboxRuntimeConfig> = {
        filesystem: {
          allowWrite: writable,
          // Writable roots stay readable even when they lie under a read deny (a workspace in $HOME).
          allowRead: writable,
          denyRead: [...policy.denyRead],
          // Read-only inside the writable roots: git hooks/config, shell rc and editor settings.
          denyWrite: protectedPaths.flat(),
        },
      }
      // An empty allow-list without a running proxy is an empty network namespace.
      if (policy.network === 'none') config.network = { allowedDomains: [], deniedDomains: [] }
      const wrapped = await SandboxManager.wrapWithSandbox(
        request.command,
        request.shell,
        config,
        undefined,
        {
          // Violations are attributed per call; an unguessable id keeps calls apart.
          commandId: randomBytes(16).toString('base64url'),
          commandText: request.command,
        },
      )
      return {
        // --norc/--noprofile: this outer shell only execs bwrap and must source nothing of the host.
        file: 'bash',
        args: ['--norc', '--noprofile', '-c', wrapped],
        env: { ...request.env, TMPDIR: privateTmp },
        release: async () => {
          SandboxManager.cleanupAfterCommand()
          await removeTmp()
        },
      }
    } catch (error) {
      await removeTmp()
      throw error
    }
  }
}

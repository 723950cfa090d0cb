import { BashSandboxUnavailableError } from './errors'
import type { CommandWrapper } from './run-command'
import type { BashSandboxConfig } from './sandbox-config'
import { probeSandbox } from './sandbox-probe'
import { createSandboxWrapper } from './sandbox-wrapper'

/**
 * Decides, per call, how commands start: the sandbox wrapper, or `undefined` for a plain
 * spawn (the sandbox is off, or unavailable with `fallback: 'unsandboxed'`).
 *
 * @throws {BashSandboxUnavailableError} when the sandbox is on, unavailable, and the fallback is `'refuse'`.
 */
export type SandboxGate = () => Promise<CommandWrapper | undefined>

/**
 * Start the sandbox probe at once (so an unavailable sandbox is reported at startup, by one
 * `warn` call) and return the gate every call goes through.
 *
 * @param sandbox — the resolved sandbox settings.
 * @param writableRoots — the directories commands may write (the configured workdir first).
 * @param warn — receives the one startup warning when the sandbox is unavailable.
 */
export function startSandboxGate(
  sandbox: BashSandboxConfig,
  writableRoots: readonly string[],
  warn: (message: string) => void,
): SandboxGate {
  if (!sandbox.enabled) return async () => undefined
  const wrapper = createSandboxWrapper({
    writableRoots: [...writableRoots, ...sandbox.allowWrite],
    denyRead: sandbox.denyRead,
    network: sandbox.network,
    maxScanEntries: sandbox.maxScanEntries,
  })
  const decided = probeSandbox().then((availability): CommandWrapper | { refused: string } | undefined => {
    if (availability.available) return wrapper
    const consequence =
      sandbox.fallback === 'unsandboxed'
        ? 'commands run WITHOUT the sandbox (sandbox.fallback is "unsandboxed")'
        : 'every command is refused (sandbox.fallback is "refuse")'
    warn(`tool-bash: the OS sandbox is unavailable (${availability.reason}); ${consequence}`)
    return sandbox.fallback === 'unsandboxed' ? undefined : { refused: availability.reason }
  })
  return async () => {
    const outcome = await decided
    if (typeof outcome === 'object') throw new BashSandboxUnavailableError(outcome.refused)
    return outcome
  }
}

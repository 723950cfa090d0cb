import { spawn } from 'node:child_process'
import { tmpdir } from 'node:os'
import { SandboxManager } from '@anthropic-ai/sandbox-runtime'
import { createSandboxWrapper } from './sandbox-wrapper'

/** Whether the OS sandbox can run on this host, and if not, why. */
export type SandboxAvailability =
  | { readonly available: true }
  | { readonly available: false; readonly reason: string }

/**
 * Set to a reason to make {@link probeSandbox} report the sandbox unavailable — for testing the
 * fallback on a host where the sandbox works.
 */
export const SANDBOX_UNAVAILABLE_ENV = 'DSH_BASH_SANDBOX_UNAVAILABLE'

let cached: Promise<SandboxAvailability> | undefined

/**
 * Find out, once per process, whether the OS sandbox works here: the platform must be one the
 * library supports, and a real sandboxed `true` must exit 0 — which fails when bubblewrap is
 * missing or the host (a container, an AppArmor policy) refuses it new namespaces. Never rejects.
 */
export function probeSandbox(): Promise<SandboxAvailability> {
  const forced = process.env[SANDBOX_UNAVAILABLE_ENV]
  if (forced !== undefined && forced !== '') {
    return Promise.resolve({ available: false, reason: `${SANDBOX_UNAVAILABLE_ENV} is set: ${forced}` })
  }
  cached ??= runProbe()
  return cached
}

async function runProbe(): Promise<SandboxAvailability> {
  if (!SandboxManager.isSupportedPlatform()) {
    return { available: false, reason: `platform ${process.platform} is not supported` }
  }
  try {
    const wrap = createSandboxWrapper({ writableRoots: [], denyRead: [], network: 'none' })
    const plan = await wrap({
      command: 'true',
      cwd: tmpdir(),
      env: { PATH: process.env.PATH ?? '' },
      shell: 'bash',
      signal: new AbortController().signal,
    })
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(plan.file, plan.args, { env: plan.env, stdio: ['ignore', 'ignore', 'pipe'] })
      let stderr = ''
      child.stderr.on('data', (chunk: Buffer) => {
        if (stderr.length < 2000) stderr += chunk.toString('utf8')
      })
      child.once('error', (error) => resolve({ code: null, stderr: error.message }))
      child.once('close', (code) => resolve({ code, stderr }))
    })
    await plan.release().catch(() => {})
    if (code === 0) return { available: true }
    return {
      available: false,
      reason: `a sandboxed test command failed (exit ${code}): ${stderr.trim() || 'no message'}`,
    }
  } catch (error) {
    return { available: false, reason: (error as Error).message }
  }
}

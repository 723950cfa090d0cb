/**
 * `dispose()` in a host with nothing else to do: it keeps the process alive until every worker —
 * warm (booted or still waiting for the memory snapshot), exiting, and the snapshot maker — has
 * exited, then releases everything, so the host exits by itself. Each case runs in a fresh Node
 * process (`fixtures/dispose-host.ts`), killed if it has not exited within the bound.
 */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const packageDir = fileURLToPath(new URL('..', import.meta.url))
const hostScript = fileURLToPath(new URL('./fixtures/dispose-host.ts', import.meta.url))
/** Far above a clean run (a snapshot, three boots and a run: seconds), below the test's timeout. */
const EXIT_BOUND_MS = 150_000

interface HostEnd {
  readonly code: number | null
  readonly killed: boolean
  readonly disposed: { stats: Record<string, number>; resources: string[] } | undefined
  readonly stderr: string
}

function runHost(when: 'booting' | 'after-run'): Promise<HostEnd> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--conditions=@dsh/source', hostScript, JSON.stringify({ when })],
      { cwd: packageDir, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk
    })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-4000)
    })
    let killed = false
    const killer = setTimeout(() => {
      killed = true
      child.kill('SIGKILL')
    }, EXIT_BOUND_MS)
    child.on('close', (code) => {
      clearTimeout(killer)
      const line = stdout.split('\n').find((entry) => entry.startsWith('DISPOSED '))
      resolve({ code, killed, disposed: line === undefined ? undefined : JSON.parse(line.slice(9)), stderr })
    })
  })
}

describe('dispose() keeps an idle host alive until every worker has exited, then lets it exit', () => {
  it.each(['booting', 'after-run'] as const)('disposed %s', async (when) => {
    const end = await runHost(when)
    expect(end.stderr).toBe('')
    expect(end).toMatchObject({ code: 0, killed: false })
    expect(end.disposed?.stats).toMatchObject({
      liveWorkers: 0,
      runningWorkers: 0,
      warmWorkers: 0,
      exitingWorkers: 0,
    })
    // Nothing the pool owned is left: no worker port, no timer.
    expect(
      end.disposed?.resources.filter((name) => !/^(TTYWrap|PipeWrap|FSReqCallback)$/.test(name)),
    ).toEqual([])
  })
})

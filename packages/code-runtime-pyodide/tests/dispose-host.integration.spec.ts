/**
 * `dispose()` in a host with nothing else to do: it keeps the process alive until every worker —
 * warm (booted or still waiting for the memory snapshot), exiting, and the snapshot maker — has
 * exited, then releases everything, so the host exits by itself. Each case runs in a fresh Node
 * process (`fixtures/dispose-host.ts`), killed if it has not exited within the bound.
 *
 * The README's test command runs the `booting` case (warm workers and the snapshot maker still
 * starting); `DSH_LONG=1` adds `after-run` (a full snapshot, boots and a run first: ~10 s of CPU).
 * The shared pool's dispose is proved in both states by code-runtime-worker-thread's copy.
 */
import { fileURLToPath } from 'node:url'
import { disposeReport, spawnScript } from '@dsh/tools-codemode/testing'
import { describe, expect, it } from 'vitest'

const packageDir = fileURLToPath(new URL('..', import.meta.url))
const hostScript = fileURLToPath(new URL('./fixtures/dispose-host.ts', import.meta.url))
/** Far above a clean run (a snapshot, three boots and a run: seconds), below the test's timeout. */
const EXIT_BOUND_MS = 150_000

describe('dispose() keeps an idle host alive until every worker has exited, then lets it exit', () => {
  const cases = process.env.DSH_LONG === '1' ? (['booting', 'after-run'] as const) : (['booting'] as const)
  it.each(cases)('disposed %s', async (when) => {
    const end = await spawnScript(hostScript, [JSON.stringify({ when })], {
      cwd: packageDir,
      killAfterMs: EXIT_BOUND_MS,
    })
    expect(end.stderr).toBe('')
    expect(end).toMatchObject({ code: 0, killed: false })
    // No worker is left, and nothing the pool owned keeps the process alive: no port, no
    // child process, no timer.
    expect(disposeReport(end.stdout)).toEqual({ workers: [0, 0, 0, 0], resources: [] })
  })
})

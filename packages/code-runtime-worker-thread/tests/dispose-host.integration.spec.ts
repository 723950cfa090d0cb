/**
 * `dispose()` in a host with nothing else to do: it keeps the process alive until every worker —
 * warm, exiting, and with `isolation: 'process'` each run process and the thread holding its
 * slot — has exited, then releases everything, so the host exits by itself. Each case runs in a
 * fresh Node process (`fixtures/dispose-host.ts`), killed if it has not exited within the bound.
 */
import { fileURLToPath } from 'node:url'
import { disposeReport, spawnScript } from '@dsh/tools-codemode/testing'
import { describe, expect, it } from 'vitest'

const packageDir = fileURLToPath(new URL('..', import.meta.url))
const hostScript = fileURLToPath(new URL('./fixtures/dispose-host.ts', import.meta.url))
/** Far above a clean exit (about a second), far below the test's timeout. */
const EXIT_BOUND_MS = 60_000

describe('dispose() keeps an idle host alive until every worker has exited, then lets it exit', () => {
  it.each([
    ['threads', { warmWorkers: 2 }],
    ['run processes', { warmWorkers: 2, isolation: 'process', maxOldGenerationSizeMb: 64 }],
  ] as const)('%s', async (_what, config) => {
    const end = await spawnScript(hostScript, [JSON.stringify(config)], {
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

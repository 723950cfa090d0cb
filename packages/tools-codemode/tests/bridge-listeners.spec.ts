// Promise.all of many sub-calls to a budgeted tool under the real timeout policy: no process
// warning, no listener left on the run's outer signal. In-process TEST DOUBLE runtime.
import { getEventListeners } from 'node:events'
import * as timeoutPolicy from '@dsh/tool-call-timeout-policy'
import { defineTool } from '@dsh/tools-core'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createApp, runCode } from './fixtures/app'
import { createInProcessRuntime } from './fixtures/in-process-runtime'

const CALLS = 200
let warnings: Error[] = []
const onWarning = (warning: Error) => warnings.push(warning)
beforeEach(() => {
  warnings = []
  process.on('warning', onWarning)
})
afterEach(() => {
  process.off('warning', onWarning)
})

describe('sub-call listeners', () => {
  it(`Promise.all of ${CALLS} budgeted sub-calls prints no warning and leaves no listener`, async () => {
    const app = await createApp({ runtime: createInProcessRuntime(), maxParallelSubCalls: CALLS })
    await app.plugin(timeoutPolicy)
    let running = 0
    let peak = 0
    app.tools.register(
      defineTool({
        name: 'budgeted',
        description: 'Has a budget and listens on its signal.',
        parameters: {},
        timeoutMs: 60_000,
        isConcurrencySafe: () => true,
        output: { schema: { type: 'integer' }, render: () => [{ type: 'text', text: 'ok' }] },
        async execute(_args, exec) {
          exec.signal.addEventListener('abort', () => {})
          peak = Math.max(peak, ++running)
          await new Promise((r) => setTimeout(r, 1))
          running--
          return 1
        },
      }),
    )
    const outer = new AbortController()
    const run = await runCode(
      app,
      `const all = await Promise.all(Array.from({ length: ${CALLS} }, () => tools.budgeted({})))
       return all.length`,
      { signal: outer.signal },
    )
    expect(run).toMatchObject({ isError: false, value: { result: CALLS } })
    expect(peak).toBeGreaterThan(10)
    expect(getEventListeners(outer.signal, 'abort')).toHaveLength(0)
    await new Promise((r) => setImmediate(r))
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([])
    await app.fiber.dispose()
  })
})

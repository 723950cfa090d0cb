// Values inside the byte caps must not cost the host seconds: every value leaving a program is
// measured by its JSON-value count and depth before the host parses it (both engines, real
// workers, the full Code Mode pipeline), and a batch of large sub-calls spreads over turns.
import { createCodeModeApp } from '@dsh/tools-codemode/testing'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type CodeEngine, createWorkerThreadRuntime } from '../src/index'
import { runCode, textOf } from './fixtures/code-mode-app'
import { countLargeParses, startLoopProbe } from './fixtures/loop-probe'

/** The longest the host's event loop may stall here: generous for a loaded machine (before: 3–6 s). */
const MAX_STALL_MS = 1_500

/**
 * The app of one engine's tests, shared by them (each run still gets a fresh worker): `taken`
 * holds the event-loop turn of each `take` call, emptied before every test.
 */
async function start(engine: CodeEngine) {
  const runtime = createWorkerThreadRuntime({ engine, warmWorkers: 0, maxOldGenerationSizeMb: 512 })
  const app = await createCodeModeApp({ runtime })
  const taken: number[] = []
  let turn = 0
  const ticker = setInterval(() => turn++, 0)
  app.tools.register({
    name: 'take',
    description: 'Takes data.',
    parameters: { type: 'object', properties: { data: { type: 'object' } } },
    output: { schema: { type: 'number' }, render: () => [{ type: 'text', text: 'ok' }] },
    isConcurrencySafe: () => true,
    execute: () => {
      taken.push(turn)
      return 1
    },
  })
  app.effect(() => () => clearInterval(ticker))
  return { ctx: app, runtime, taken }
}

const keys = (n: number) => `Object.fromEntries(Array.from({ length: ${n} }, (_, i) => ['k' + i, i]))`

describe.each<CodeEngine>(['quickjs', 'node-vm'])('value limits (%s)', (engine) => {
  let shared: Awaited<ReturnType<typeof start>>
  beforeAll(async () => {
    shared = await start(engine)
  })
  beforeEach(() => {
    shared.taken.length = 0
  })
  afterAll(async () => {
    await shared.ctx.fiber.dispose()
    await shared.runtime.dispose()
  })

  it('a result of 100,000 keys (5 × maxValueNodes) ends output-limit on maxValueNodes; the host never parses it', async () => {
    const { ctx } = shared
    const probe = startLoopProbe()
    const parses = countLargeParses()
    let result: Awaited<ReturnType<typeof runCode>>
    try {
      result = await runCode(ctx, `return ${keys(100_000)}`)
    } finally {
      parses.restore()
    }
    const stall = await probe.stop()
    expect(result).toMatchObject({ isError: true, error: { info: { code: 'CODE_RUN_FAILED' } } })
    expect(textOf(result)).toMatch(
      /^Error: code run failed \(output-limit\): the result holds more than 20000 JSON values \(`maxValueNodes`\)/,
    )
    expect(parses.count).toBe(0)
    expect(stall).toBeLessThan(MAX_STALL_MS)
  })

  it('six sub-calls of 40,000-key arguments (2 × maxValueNodes) are each refused in the program; no tool runs', async () => {
    const { ctx, taken } = shared
    const probe = startLoopProbe()
    const parses = countLargeParses()
    let result: Awaited<ReturnType<typeof runCode>>
    try {
      result = await runCode(
        ctx,
        `const data = ${keys(40_000)}
        const settled = await Promise.allSettled([1, 2, 3, 4, 5, 6].map(() => tools.take({ data })))
        return settled.map((s) => s.status === 'rejected' ? s.reason.name + ': ' + s.reason.message : 'ran')`,
      )
    } finally {
      parses.restore()
    }
    const stall = await probe.stop()
    const messages = (result as unknown as { value: { result: string[] } }).value.result
    expect(messages).toHaveLength(6)
    for (const message of messages) {
      expect(message).toMatch(
        /^ToolCallError: arguments for take holds more than 20000 JSON values \(`maxValueNodes`\)/,
      )
    }
    expect({ taken: taken.length, parses: parses.count }).toEqual({ taken: 0, parses: 0 })
    expect(stall).toBeLessThan(MAX_STALL_MS)
  })

  it('within the caps, six sub-calls of 19,000 keys run, spread over event-loop turns', async () => {
    const { ctx, taken } = shared
    const probe = startLoopProbe()
    const result = await runCode(
      ctx,
      `const data = ${keys(19_000)}
      return (await Promise.all([1, 2, 3, 4, 5, 6].map(() => tools.take({ data })))).length`,
    )
    const stall = await probe.stop()
    expect(result).toMatchObject({ isError: false, value: { result: 6 } })
    const perTurn = new Map<number, number>()
    for (const turn of taken) perTurn.set(turn, (perTurn.get(turn) ?? 0) + 1)
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(2)
    expect(stall).toBeLessThan(MAX_STALL_MS)
  })

  it('a result of 19,000 keys and one nested 100 deep come back whole; 101 deep is refused', async () => {
    const { ctx } = shared
    const wide = await runCode(ctx, `return ${keys(19_000)}`)
    expect(wide).toMatchObject({ isError: false })
    expect(Object.keys((wide as unknown as { value: { result: object } }).value.result)).toHaveLength(19_000)
    const nest = (depth: number) => `let v = []; for (let i = 1; i < ${depth}; i++) v = [v]; return v`
    expect(await runCode(ctx, nest(100))).toMatchObject({ isError: false })
    expect(textOf(await runCode(ctx, nest(101)))).toBe(
      'Error: code run failed (output-limit): the result nests more than 100 levels deep (`maxValueDepth`)',
    )
  })
})

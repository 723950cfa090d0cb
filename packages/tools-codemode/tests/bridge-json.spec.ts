// The bridge's JSON-text entry (`host.callJson`), through ctx.tools.execute with the in-process
// TEST DOUBLE runtime handing each call's arguments over as `JSON.stringify` text: the bridge
// parses and owns them, admits them without a copy, and applies every limit `host.call` does.
import type { Context } from '@deepseek-ai/cordis'
import { defineTool, type JsonValue, type ToolExecutionResult } from '@dsh/tools-core'
import { afterEach, describe, expect, it } from 'vitest'
import type { CodeRunHost, CodeRunOutcome, CodeRuntime } from '../src/code-runtime'
import type { CodeModeConfig } from '../src/config'
import { createApp, deferred, runCode, until } from './fixtures/app'
import { createInProcessRuntime } from './fixtures/in-process-runtime'

let app: Context | undefined
afterEach(async () => {
  await app?.fiber.dispose()
  app = undefined
})

/** An app whose runtime calls `callJson`, with a recording `take` tool and a held `gate` tool. */
async function start(config: CodeModeConfig = {}, runtime?: CodeRuntime) {
  const reached = { policy: 0, bodies: 0, args: [] as unknown[], events: [] as JsonValue[] }
  const gates: (() => void)[] = []
  app = await createApp({ runtime: runtime ?? createInProcessRuntime({ argumentsAs: 'json' }), config })
  app.on('tools/pre-execute', (exec, next) => {
    if (exec.name !== 'run_code') reached.policy++
    return next()
  })
  app.on('tool/code-dispatch-start', (event) => reached.events.push(event.arguments))
  app.tools.register(
    defineTool({
      name: 'take',
      description: 'Records its arguments.',
      parameters: { s: { type: 'string' }, n: { type: 'number' }, v: { type: 'json' } },
      output: { schema: { type: 'integer' }, render: () => [{ type: 'text', text: 'taken' }] },
      isConcurrencySafe: () => true,
      execute(args, exec) {
        reached.bodies++
        reached.args.push(exec.arguments)
        return Object.keys(args).length
      },
    }),
  )
  app.tools.register(
    defineTool({
      name: 'gate',
      description: 'Waits until released.',
      parameters: { text: { type: 'string' } },
      output: { schema: { type: 'string' }, render: () => [{ type: 'text', text: 'ok' }] },
      isConcurrencySafe: () => true,
      async execute() {
        reached.bodies++
        const gate = deferred()
        gates.push(gate.resolve)
        await gate.promise
        return 'ok'
      },
    }),
  )
  return { ctx: app, reached, gates }
}

function resultOf(run: ToolExecutionResult): unknown {
  expect(run.isError).toBe(false)
  return (run as { value: { result?: unknown } }).value.result
}

const settleAll = (calls: string) => `
  const settled = await Promise.allSettled(${calls})
  return {
    ok: settled.filter((s) => s.status === 'fulfilled').length,
    errors: settled.filter((s) => s.status === 'rejected').map((s) => s.reason.name + ': ' + s.reason.message),
  }`

/** A runtime that sends each of `texts` as the raw argument text of one `take` call. */
function rawTextRuntime(texts: readonly unknown[], name = 'take'): CodeRuntime {
  return {
    language: 'typescript',
    async run(_request, host: CodeRunHost): Promise<CodeRunOutcome> {
      const errors: string[] = []
      for (const text of texts) {
        try {
          await host.callJson!(name, text as string)
        } catch (error) {
          errors.push((error as Error).message)
        }
      }
      return { ok: true, logs: [], result: errors }
    },
  }
}

describe('host.callJson', () => {
  it('delivers the parsed arguments deep-frozen to policy, events and the body', async () => {
    const { ctx, reached } = await start()
    const run = await runCode(ctx, "return await tools.take({ s: 'x', v: { a: [1, { b: null }] } })")
    expect(resultOf(run)).toBe(2)
    const [args] = reached.args as [{ v: { a: [number, object] } }]
    expect(args).toStrictEqual({ s: 'x', v: { a: [1, { b: null }] } })
    expect(Object.isFrozen(args) && Object.isFrozen(args.v) && Object.isFrozen(args.v.a[1])).toBe(true)
    expect(reached.events).toStrictEqual([args])
    expect(reached.policy).toBe(1)
  })

  it('the pipeline takes the admitted tree as is: one parse, no second copy', async () => {
    const { ctx, reached } = await start()
    expect(resultOf(await runCode(ctx, "return await tools.take({ v: { deep: ['x'] } })"))).toBe(1)
    // The dispatch event carries the bridge's admitted value; the body sees the same object.
    expect(reached.args[0]).toBe(reached.events[0])
  })

  it('refuses text that is not JSON or holds a lossy number, before policy', async () => {
    const { ctx, reached } = await start(
      {},
      rawTextRuntime(['{"s":', '{"n":-0}', '{"n":1e400}', 42, '{"s":"fine"}']),
    )
    expect(resultOf(await runCode(ctx, 'scripted'))).toEqual([
      expect.stringMatching(/^arguments are not lossless JSON: \$: not JSON text/),
      'arguments are not lossless JSON: $.n: -0 does not survive JSON',
      'arguments are not lossless JSON: $.n: Infinity is not JSON',
      'arguments JSON must be a string',
    ])
    expect(reached).toMatchObject({ policy: 1, bodies: 1 })
  })

  it('checks the binding name (and counts the call) before reading the text', async () => {
    const { ctx, reached } = await start(
      { maxSubCallsPerRun: 2 },
      rawTextRuntime(['not json', '{}', '{}'], 'nope'),
    )
    expect(resultOf(await runCode(ctx, 'scripted'))).toEqual([
      'unknown tool: nope is not a binding of this run',
      'unknown tool: nope is not a binding of this run',
      'call limit reached: a run_code program may make at most 2 tool calls (Code Mode limit `maxSubCallsPerRun`)',
    ])
    expect(reached.policy).toBe(0)
  })

  it('applies maxArgumentNodes and maxArgumentStringLength to the text, naming where counting stopped', async () => {
    const { ctx, reached } = await start({ maxArgumentNodes: 100, maxArgumentStringLength: 50 })
    const run = await runCode(
      ctx,
      settleAll(
        "[tools.take({ v: Array.from({ length: 200 }, (_, i) => i) }), tools.take({ s: 'x'.repeat(60) }), tools.take({ v: [1, 2] })]",
      ),
    )
    expect(resultOf(run)).toEqual({
      ok: 1,
      errors: [
        'ToolCallError: arguments too large: more than 100 JSON values, past the Code Mode limit `maxArgumentNodes` (100 JSON values per call)',
        'ToolCallError: arguments too large: counting stopped at $.s, past the Code Mode limit `maxArgumentStringLength` (50 string code units per call; a shared reference counts at every occurrence)',
      ],
    })
    expect(reached).toMatchObject({ policy: 1, bodies: 1 })
  })

  it('an argument text of 1,000,000 keys is refused on maxArgumentNodes under the defaults, before any parse', async () => {
    const text = `{${Array.from({ length: 1_000_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`
    const { ctx, reached } = await start({}, rawTextRuntime([text]))
    const parse = JSON.parse
    let parsed = 0
    JSON.parse = (...args: Parameters<typeof JSON.parse>) => {
      if (args[0] === text) parsed++
      return parse(...args)
    }
    try {
      const [message] = resultOf(await runCode(ctx, 'scripted')) as [string]
      expect(message).toBe(
        'arguments too large: more than 20000 JSON values, past the Code Mode limit `maxArgumentNodes` (20000 JSON values per call)',
      )
    } finally {
      JSON.parse = parse
    }
    expect({ parsed, policy: reached.policy }).toEqual({ parsed: 0, policy: 0 })
  })

  it('refuses 100k-deep argument text on maxArgumentDepth by its scan, without overflowing the host stack', async () => {
    const deep = `{"v":${'['.repeat(100_000)}${']'.repeat(100_000)}}`
    const { ctx, reached } = await start({ maxArgumentNodes: 50_000 }, rawTextRuntime([deep]))
    const [message] = resultOf(await runCode(ctx, 'scripted')) as [string]
    expect(message).toContain('past the Code Mode limit `maxArgumentDepth`')
    expect(reached.policy).toBe(0)
  })

  it('counts queued bytes as host.call does: the same 1006 bytes per call', async () => {
    // each call holds 'x' × 1000 + key 'text' + 2 values = 1006 bytes
    const { ctx, reached, gates } = await start({ maxParallelSubCalls: 1, maxQueuedArgumentBytes: 3000 })
    const pending = runCode(
      ctx,
      settleAll('[1, 2, 3, 4].map((i) => tools.gate({ text: String(i % 10).repeat(1000) }))'),
    )
    await until(() => gates.length === 1)
    while (reached.bodies < 3 || gates.length > 0) {
      gates.shift()?.()
      await new Promise((r) => setTimeout(r, 1))
    }
    expect(resultOf(await pending)).toEqual({
      ok: 3,
      errors: [
        "ToolCallError: too many argument bytes queued: this call's 1006 bytes would take the run's queue past 3000 bytes; await earlier calls first (Code Mode limit `maxQueuedArgumentBytes`)",
      ],
    })
    expect(reached.policy).toBe(3)
  })

  it('enforces maxOutstandingSubCalls', async () => {
    const { ctx, reached, gates } = await start({ maxOutstandingSubCalls: 2 })
    const pending = runCode(ctx, settleAll("[1, 2, 3].map((i) => tools.gate({ text: 'g' + i }))"))
    await until(() => gates.length === 2)
    for (const release of gates) release()
    expect(resultOf(await pending)).toEqual({
      ok: 2,
      errors: [
        'ToolCallError: too many outstanding calls: 2 tool calls of this run are already queued or running; await some before making more (Code Mode limit `maxOutstandingSubCalls`)',
      ],
    })
    expect(reached.policy).toBe(2)
  })
})

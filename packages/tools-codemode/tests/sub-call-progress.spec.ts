// Progress reported by Code Mode sub-calls: carried by the sub-call's own execution (whose
// `parent` is the run_code token), in order, before the sub-call's and the run's results.
// In-process TEST DOUBLE runtime (the real worker runtime is exercised in @dsh/tool-otel).
import { createScope, defineTool, type ToolExecution, type ToolProgressUpdate } from '@dsh/tools-core'
import { describe, expect, it } from 'vitest'
import { createApp, runCode } from './fixtures/app'
import { createInProcessRuntime } from './fixtures/in-process-runtime'

const stepTool = defineTool({
  name: 'step',
  description: 'Reports two progress steps.',
  parameters: { n: { type: 'integer', required: true } },
  isConcurrencySafe: () => true,
  output: { schema: { type: 'integer' }, render: (_args, value) => [{ type: 'text', text: String(value) }] },
  async execute(args, exec) {
    exec.progress({ progress: 1, total: 2, message: `step ${args.n}` })
    await new Promise((resolve) => setImmediate(resolve))
    exec.progress({ progress: 2, total: 2, message: `step ${args.n}` })
    return args.n
  },
})

type Event = { kind: 'progress' | 'result'; execution: ToolExecution; update?: ToolProgressUpdate }

describe('Code Mode sub-call progress', () => {
  it('carries the sub-call execution (parent = run_code token) and precedes the results', async () => {
    const app = await createApp({ runtime: createInProcessRuntime(), maxParallelSubCalls: 4 })
    app.tools.register(stepTool)
    const events: Event[] = []
    app.on('tools/progress', (execution, update) => {
      events.push({ kind: 'progress', execution, update })
    })
    app.on('tools/result', (execution) => {
      events.push({ kind: 'result', execution })
    })
    const run = await runCode(
      app,
      'return await Promise.all([tools.step({ n: 1 }), tools.step({ n: 2 }), tools.step({ n: 3 })])',
    )
    expect(run.isError).toBe(false)
    const outer = events.at(-1)!
    expect(outer.kind).toBe('result')
    expect(outer.execution.name).toBe('run_code')
    const progress = events.filter((e) => e.kind === 'progress')
    expect(progress).toHaveLength(6)
    for (const event of progress) {
      expect(event.execution.name).toBe('step')
      expect(event.execution.parent).toBe(outer.execution.token)
    }
    // per sub-call: step 1 then 2, both before that sub-call's own result
    for (const n of [1, 2, 3]) {
      const own = events.filter(
        (e) => e.execution.name === 'step' && (e.execution.arguments as { n: number }).n === n,
      )
      expect(own.map((e) => [e.kind, e.update?.progress])).toEqual([
        ['progress', 1],
        ['progress', 2],
        ['result', undefined],
      ])
    }
    await app.fiber.dispose()
  })

  it('an agent-scoped progress listener sees its own agent’s sub-calls only', async () => {
    const app = await createApp({ runtime: createInProcessRuntime() })
    app.tools.register(stepTool)
    const a = createScope(app, 'a')
    const seen: (string | undefined)[] = []
    a.ctx.on('tools/progress', (execution) => {
      seen.push(execution.agent)
    })
    await runCode(app, 'return await tools.step({ n: 1 })', { agent: 'a' })
    await runCode(app, 'return await tools.step({ n: 1 })', { agent: 'b' })
    await runCode(app, 'return await tools.step({ n: 1 })')
    expect(seen).toEqual(['a', 'a'])
    await app.fiber.dispose()
  })
})

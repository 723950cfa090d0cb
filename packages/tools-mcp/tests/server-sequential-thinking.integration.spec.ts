/**
 * Conformance against `@modelcontextprotocol/server-sequential-thinking` (pinned), a real npm
 * server spawned once over stdio: its one tool with a long description kept whole, a
 * zod-generated schema with coerced unions (`boolean | string`), structured output, the
 * server's own argument refusals as TOOL_FAILED, state kept across calls on one session and
 * lost with a killed child (the next call starts a new one), Code Mode, and dispose.
 */
import type { Context, Fiber } from '@deepseek-ai/cordis'
import WorkerThreadCodeRuntime from '@dsh/code-runtime-worker-thread'
import * as CodeMode from '@dsh/tools-codemode'
import type { ToolExecutionResult } from '@dsh/tools-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { McpWarning } from '../src/index'
import { call, createApp, isAlive, loadMcp, until } from './fixtures/app'
import { childPids, sdkCode, serverBin, strictDiagnostics } from './fixtures/third-party'

const BIN = serverBin('@modelcontextprotocol/server-sequential-thinking', 'mcp-server-sequential-thinking')
const TOOL = 'think__sequentialthinking'

let ctx: Context
let fiber: Fiber
let warnings: McpWarning[]

const ok = (result: ToolExecutionResult) => {
  if (result.isError) throw new Error(`${result.error.info?.code}: ${result.error.message}`)
  return result
}
const thought = (n: number, extra: Record<string, unknown> = {}) => ({
  thought: `thought ${n}`,
  nextThoughtNeeded: true,
  thoughtNumber: n,
  totalThoughts: 3,
  ...extra,
})

beforeAll(async () => {
  ;({ ctx, warnings } = await createApp('both'))
  await ctx.plugin(WorkerThreadCodeRuntime, { maxConcurrentRuns: 1 })
  await ctx.plugin(CodeMode, {})
  fiber = await loadMcp(ctx, {
    name: 'think',
    transport: { command: process.execPath, args: [BIN] },
    trustAnnotations: true,
    timeoutMs: 20_000,
  })
})

afterAll(async () => {
  const pids = childPids(BIN)
  await ctx?.fiber.dispose()
  for (const pid of pids) if (isAlive(pid)) process.kill(pid, 'SIGKILL')
})

describe('@modelcontextprotocol/server-sequential-thinking over stdio', () => {
  it('one tool, its long description whole, its schema and annotations taken as listed', () => {
    expect(childPids(BIN)).toHaveLength(1)
    expect(warnings).toEqual([])
    const schema = ctx.tools.schemas().find((s) => s.name === TOOL)!
    expect(schema.description).toMatch(/^A detailed tool for dynamic and reflective problem-solving/)
    expect(schema.description).toMatch(/satisfactory answer is reached$/)
    expect(schema.description.length).toBeGreaterThan(2500)
    expect(schema.parameters).toMatchObject({
      type: 'object',
      required: ['thought', 'nextThoughtNeeded', 'thoughtNumber', 'totalThoughts'],
    })
    expect(schema.outputSchema).toMatchObject({ type: 'object', properties: { branches: { type: 'array' } } })
    expect(ctx.tools.get(TOOL)?.annotations).toEqual({
      readOnly: true,
      destructive: false,
      idempotent: true,
      openWorld: false,
    })
  })

  it('thoughts accumulate on one session; branches and coerced strings are accepted', async () => {
    const first = ok(await call(ctx, TOOL, thought(1)))
    expect(first.value).toEqual({
      thoughtNumber: 1,
      totalThoughts: 3,
      nextThoughtNeeded: true,
      branches: [],
      thoughtHistoryLength: 1,
    })
    // The model sees the server's own text block (its JSON), the value is the structured one.
    expect(JSON.parse((first.content[0] as { text: string }).text)).toEqual(first.value)
    const branched = ok(
      await call(
        ctx,
        TOOL,
        thought(2, { branchFromThought: 1, branchId: 'alt', nextThoughtNeeded: 'false' }),
      ),
    )
    expect(branched.value).toMatchObject({
      nextThoughtNeeded: false,
      branches: ['alt'],
      thoughtHistoryLength: 2,
    })
  })

  it('arguments our gate refuses never reach the server; ones only the server refuses are TOOL_FAILED', async () => {
    for (const args of [
      thought(0),
      thought(1.5),
      { ...thought(1), thought: 7 },
      { nextThoughtNeeded: true, thoughtNumber: 1, totalThoughts: 1 },
    ]) {
      const result = await call(ctx, TOOL, args)
      expect(result.isError && result.error.info?.code, JSON.stringify(args)).toBe('INVALID_ARGS')
    }
    // `boolean | string` in the schema; the server's own refinement refuses other strings.
    const refused = await call(ctx, TOOL, thought(3, { nextThoughtNeeded: 'maybe' }))
    expect(refused.isError && refused.error.info?.code).toBe('TOOL_FAILED')
    expect(refused.isError && refused.error.message).toMatch(
      /^MCP tool "sequentialthinking" on server "think" failed: .*Expected boolean or "true"\/"false" string/s,
    )
    expect(ok(await call(ctx, TOOL, thought(3))).value).toMatchObject({ thoughtHistoryLength: 3 })
  })

  it('a killed child: the next call starts a new one (fresh state), with no orphan', async () => {
    const [old] = childPids(BIN)
    process.kill(old!, 'SIGKILL')
    await until(() => !isAlive(old!))
    // A call racing the death (sent before the pipe's close was read) fails as a disconnect;
    // then, or at once, the next call runs on a new child.
    let after = await call(ctx, TOOL, thought(1))
    if (after.isError) {
      expect(after.error.info?.code).toBe('TOOL_FAILED')
      expect(after.error.message).toMatch(/^MCP server "think" crashed or disconnected during tools\/call/)
      after = await call(ctx, TOOL, thought(1))
    }
    expect(ok(after).value).toMatchObject({ thoughtHistoryLength: 1 })
    const now = childPids(BIN)
    expect(now).toHaveLength(1)
    expect(now[0]).not.toBe(old)
    expect(ctx.tools.get(TOOL)).toBeDefined()
  })

  it('Code Mode: the SDK types the coerced union and a run_code loop of thoughts runs through the pipeline', async () => {
    const use = [
      sdkCode(ctx),
      'export async function use(): Promise<number> {',
      `  const a = await tools.${TOOL}({ thought: "x", nextThoughtNeeded: "true", thoughtNumber: 1, totalThoughts: 1 })`,
      '  // @ts-expect-error thoughtNumber is a number',
      `  await tools.${TOOL}({ thought: "x", nextThoughtNeeded: true, thoughtNumber: "1", totalThoughts: 1 })`,
      '  return a.thoughtHistoryLength',
      '}',
    ].join('\n')
    expect(strictDiagnostics(use)).toEqual([])
    const program = `
      const steps = []
      for (let n = 1; n <= 4; n++)
        steps.push(await tools.${TOOL}({ thought: 'step ' + n, nextThoughtNeeded: n < 4, thoughtNumber: n, totalThoughts: 4 }))
      return { last: steps[3], added: steps[3].thoughtHistoryLength - steps[0].thoughtHistoryLength }`
    const result = ok(await call(ctx, 'run_code', { code: program, description: 'four thoughts' }))
    expect((result.value as { result: unknown }).result).toMatchObject({
      last: { thoughtNumber: 4, nextThoughtNeeded: false },
      added: 3,
    })
  })

  it('dispose unregisters the tool and leaves no child process', async () => {
    const [pid] = childPids(BIN)
    await fiber.dispose()
    await until(() => !isAlive(pid!))
    expect(childPids(BIN)).toEqual([])
    expect(ctx.tools.get(TOOL)).toBeUndefined()
  })
})

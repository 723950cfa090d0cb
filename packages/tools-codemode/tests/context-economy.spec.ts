// Result budgets and deferred tools as Code Mode sees them (in-process TEST DOUBLE runtime):
// sub-call values are never cut, read_result and tool_search are bindings, and loading is
// per agent.
import { Context } from '@deepseek-ai/cordis'
import ToolRuntime, {
  createScope,
  defineTool,
  type ToolExecutionResult,
  type ToolRuntimeConfig,
} from '@dsh/tools-core'
import { afterEach, describe, expect, it } from 'vitest'
import type { CodeRunRequest } from '../src/code-runtime'
import * as CodeMode from '../src/plugin'
import { runCode, textOf } from './fixtures/app'
import { createInProcessRuntime } from './fixtures/in-process-runtime'

let app: Context | undefined
afterEach(async () => {
  await app?.fiber.dispose()
  app = undefined
})

const requests: CodeRunRequest[] = []

async function start(config: ToolRuntimeConfig) {
  const ctx = new Context()
  await ctx.plugin(ToolRuntime, config)
  const runtime = createInProcessRuntime({ onRequest: (request) => requests.push(request) })
  await ctx.plugin({
    name: 'test-code-runtime',
    apply: (child: Context) => child.provide('codeRuntime', runtime),
  })
  await ctx.plugin(CodeMode, {})
  app = ctx
  ctx.tools.register(
    defineTool({
      name: 'dump',
      description: 'Return a large text blob.',
      parameters: { size: { type: 'integer', required: true } },
      output: { schema: { type: 'string' }, render: (_a, value) => [{ type: 'text', text: value }] },
      execute: (args) => 'd'.repeat(args.size),
    }),
  )
  ctx.tools.register(
    defineTool({
      name: 'get_weather',
      description: 'Current weather for a city.',
      parameters: { city: { type: 'string', required: true } },
      output: { schema: { type: 'string' }, render: (_a, value) => [{ type: 'text', text: value }] },
      execute: (args) => `sunny in ${args.city}`,
    }),
  )
  return ctx
}

/** The program's returned value (throws on a failed run, so a failure cannot pass silently). */
function resultOf<T>(result: ToolExecutionResult): T {
  if (result.isError) throw new Error(result.error.message)
  return (result.value as { result: T }).result
}

const sdkOf = (ctx: Context, agent?: string) =>
  ctx.tools
    .assemble(agent === undefined ? {} : { agent })
    .sections.find((section) => section.id === 'tools:sdk')!.text

describe('result budgets in Code Mode', () => {
  it('sub-call values are never truncated; only the run_code content the model sees is cut', async () => {
    const ctx = await start({ mode: 'code', resultBudget: { maxContentBytes: 1024 } })
    const result = await runCode(
      ctx,
      'const text = await tools.dump({ size: 200000 }); return { length: text.length, text }',
    )
    expect(result.isError).toBe(false)
    if (!result.isError) expect((result.value as { result: { length: number } }).result.length).toBe(200_000)
    expect(Buffer.byteLength(textOf(result))).toBeLessThanOrEqual(1024)
    expect(JSON.parse(textOf(result))).toMatchObject({ length: 200000 })
    const handle = /read_result handle=(res_[\w-]+)/.exec(textOf(result))![1]!
    // read_result is a binding too: a program can page the cut run_code result.
    expect(sdkOf(ctx)).toContain('read_result')
    const paged = await runCode(
      ctx,
      `const page = await tools.read_result({ handle: ${JSON.stringify(handle)}, limit: 100 }); return page.text.length`,
    )
    expect(paged.isError ? paged.error.message : resultOf<number>(paged)).toBe(100)
  })
})

describe('deferred tools in Code Mode', () => {
  it('deferred tools leave the SDK and the bindings; tool_search is a binding that loads them for that agent', async () => {
    const ctx = await start({ mode: 'code' })
    ctx.tools.defer(['get_weather'])
    const a = createScope(ctx, 'a')
    expect(sdkOf(ctx, 'a')).not.toContain('get_weather')
    expect(sdkOf(ctx, 'a')).toContain('tool_search')

    const direct = await runCode(
      a.ctx,
      "try { await tools.get_weather({ city: 'Oslo' }) } catch (e) { return e.message }",
    )
    expect(resultOf<string>(direct)).toMatch(/deferred tool must be loaded with `tools.tool_search/)

    requests.length = 0
    const search = await runCode(
      a.ctx,
      "return (await tools.tool_search({ query: 'weather' })).matches.map((m) => m.name)",
    )
    expect(resultOf<string[]>(search)).toEqual(['get_weather'])
    expect(requests[0]!.toolNames).not.toContain('get_weather')
    expect(requests[0]!.toolNames).toContain('tool_search')

    // From the next assembly (and the next run) for `a` only.
    expect(sdkOf(ctx, 'a')).toContain('get_weather')
    expect(sdkOf(ctx, 'b')).not.toContain('get_weather')
    const later = await runCode(a.ctx, "return await tools.get_weather({ city: 'Oslo' })")
    expect(resultOf<string>(later)).toBe('sunny in Oslo')
    const other = await runCode(
      ctx,
      "try { await tools.get_weather({ city: 'Oslo' }) } catch (e) { return e.message }",
      { agent: 'b' },
    )
    expect(resultOf<string>(other)).toMatch(/not a binding of this run; a deferred tool/)
  })

  it('both mode: deferred tools leave the native definitions and the SDK; tool_search is in both', async () => {
    const ctx = await start({ mode: 'both' })
    ctx.tools.defer(['get_weather'])
    const assembly = ctx.tools.assemble({})
    expect(assembly.tools.map((tool) => tool.name)).toEqual(['dump', 'tool_search', 'run_code'])
    expect(sdkOf(ctx)).not.toContain('get_weather')
    expect(sdkOf(ctx)).toContain('tool_search')
    const found = await ctx.tools.execute({
      callId: 'native-search',
      name: 'tool_search',
      arguments: { query: 'city weather' },
      signal: new AbortController().signal,
    })
    expect(found.isError).toBe(false)
    expect(ctx.tools.assemble({}).tools.map((tool) => tool.name)).toEqual(['dump', 'get_weather', 'run_code'])
    expect(sdkOf(ctx)).toContain('get_weather')
  })
})

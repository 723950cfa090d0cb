// Transport, sections, rendering and lifecycle through the tool runtime, with the in-process
// TEST DOUBLE runtime or stub runtimes (real workers: code-mode.integration.spec.ts).
import { Context } from '@deepseek-ai/cordis'
import ToolRuntime, { createScope } from '@dsh/tools-core'
import { afterEach, describe, expect, it } from 'vitest'
import type { CodeRunFailureKind, CodeRunOutcome, CodeRuntime } from '../src/code-runtime'
import * as CodeMode from '../src/plugin'
import { CODE_ONLY_RULE_TEXT } from '../src/sdk/sections'
import { renderTypeScriptSdk } from '../src/sdk/typescript'
import { addTool, createApp, echoTool, runCode, textOf } from './fixtures/app'
import { createInProcessRuntime } from './fixtures/in-process-runtime'

let app: Context | undefined
afterEach(async () => {
  await app?.fiber.dispose()
  app = undefined
})

async function start(mode: 'native' | 'code' | 'both', runtime: CodeRuntime = createInProcessRuntime()) {
  app = await createApp({ mode, runtime })
  app.tools.register(addTool)
  app.tools.register(echoTool)
  return app
}

const stubRuntime = (
  outcome: CodeRunOutcome,
  language: 'typescript' | 'python' = 'typescript',
): CodeRuntime => ({
  language,
  run: async () => outcome,
})

describe('prompt assembly', () => {
  it('code mode: only run_code as a native tool, the code-only rule and the SDK', async () => {
    const ctx = await start('code')
    const assembly = ctx.tools.assemble({})
    expect(assembly.mode).toBe('code')
    expect(assembly.tools.map((tool) => tool.name)).toEqual(['run_code'])
    const byId = Object.fromEntries(assembly.sections.map((section) => [section.id, section]))
    expect(byId['tools:code-only']).toEqual({ id: 'tools:code-only', order: 140, text: CODE_ONLY_RULE_TEXT })
    expect(byId['tools:sdk']!.order).toBe(150)
    expect(byId['tools:sdk']!.text).toBe(renderTypeScriptSdk(ctx.tools.schemas()))
    expect(byId['tools:sdk']!.text).toContain(
      '  add: (args: ToolArgsMap["add"]) => Promise<ToolOutputMap["add"]>;',
    )
  })

  it('both mode: native tools plus run_code, the rule section empty', async () => {
    const ctx = await start('both')
    const assembly = ctx.tools.assemble({})
    expect(assembly.tools.map((tool) => tool.name).sort()).toEqual(['add', 'echo', 'run_code'])
    const byId = Object.fromEntries(assembly.sections.map((section) => [section.id, section]))
    expect(byId['tools:code-only']!.text).toBe('')
    expect(byId['tools:sdk']!.text).toContain('declare const tools')
  })

  it('the SDK follows the calling scope’s visible tools and is byte-identical across assemblies', async () => {
    const ctx = await start('code')
    const scope = createScope(ctx, 'reader')
    scope.ctx.tools.restrict({ allow: ['echo'] })
    const global = ctx.tools.assemble({}).sections.find((section) => section.id === 'tools:sdk')!.text
    const scoped = ctx.tools
      .assemble({ agent: 'reader' })
      .sections.find((section) => section.id === 'tools:sdk')!.text
    expect(scoped).not.toContain('ToolArgsMap["add"]')
    expect(global).toContain('ToolArgsMap["add"]')
    expect(ctx.tools.assemble({}).sections.find((section) => section.id === 'tools:sdk')!.text).toBe(global)
  })

  it('the SDK language follows the runtime; Python runtimes get the Python SDK', async () => {
    const ctx = await start('code', stubRuntime({ ok: true, logs: [] }, 'python'))
    const sdk = ctx.tools.assemble({}).sections.find((section) => section.id === 'tools:sdk')!.text
    expect(sdk).toContain('```python')
    expect(sdk).toContain('async def add(self, args: AddArgs) -> float:')
  })

  it('a runtime language with no renderer fails assembly loudly', async () => {
    const ctx = await start('code', { language: 'ruby' as never, run: async () => ({ ok: true, logs: [] }) })
    expect(() => ctx.tools.assemble({})).toThrow(/no Code Mode SDK renderer for runtime language "ruby"/)
  })

  it('without a code runtime there is no provider, and a code-mode assembly fails', async () => {
    const ctx = new Context()
    app = ctx
    await ctx.plugin(ToolRuntime, { mode: 'code' })
    await ctx.plugin(CodeMode)
    expect(() => ctx.tools.assemble({})).toThrow(/Code Mode provider/)
  })

  it('the provider ends with the plugin fiber', async () => {
    const ctx = new Context()
    app = ctx
    await ctx.plugin(ToolRuntime, { mode: 'code' })
    ctx.provide('codeRuntime', createInProcessRuntime())
    const fiber = await ctx.plugin(CodeMode)
    expect(ctx.tools.assemble({}).tools.map((tool) => tool.name)).toEqual(['run_code'])
    await fiber.dispose()
    expect(() => ctx.tools.assemble({})).toThrow(/Code Mode provider/)
  })
})

describe('code-only gate', () => {
  it('code mode: a direct call to another tool is UNKNOWN_TOOL with the route-back message', async () => {
    const ctx = await start('code')
    const direct = await ctx.tools.execute({
      callId: 'd',
      name: 'add',
      arguments: { a: 1, b: 2 },
      signal: new AbortController().signal,
    })
    expect(direct).toMatchObject({ isError: true, error: { info: { code: 'UNKNOWN_TOOL' } } })
    expect(textOf(direct)).toContain('only `run_code` is callable directly')
    const viaCode = await runCode(ctx, 'return await tools.add({ a: 1, b: 2 })')
    expect(viaCode).toMatchObject({ isError: false, value: { result: 3 } })
  })

  it('both mode: direct calls and run_code both work', async () => {
    const ctx = await start('both')
    const direct = await ctx.tools.execute({
      callId: 'd',
      name: 'add',
      arguments: { a: 1, b: 2 },
      signal: new AbortController().signal,
    })
    expect(direct).toMatchObject({ isError: false, value: 3 })
    expect(await runCode(ctx, 'return await tools.add({ a: 2, b: 2 })')).toMatchObject({
      value: { result: 4 },
    })
  })

  it('native mode: run_code is not callable', async () => {
    const ctx = await start('native')
    const result = await runCode(ctx, 'return 1')
    expect(result).toMatchObject({ isError: true, error: { info: { code: 'UNKNOWN_TOOL' } } })
  })
})

describe('run_code rendering', () => {
  it.each([
    ['return "plain\\ntext"', 'plain\ntext'],
    ['return { a: [1, 2] }', '{\n  "a": [\n    1,\n    2\n  ]\n}'],
    ['return null', 'null'],
    ['', '(run_code completed with no output)'],
    ['console.log("one"); console.log("two"); return 3', 'one\ntwo\n3'],
  ])('program %j renders %j', async (code, text) => {
    const ctx = await start('code')
    const result = await runCode(ctx, code)
    expect(result.isError).toBe(false)
    expect(textOf(result)).toBe(text)
  })

  it('keeps a missing result absent in the canonical value', async () => {
    const ctx = await start('code')
    const result = await runCode(ctx, 'console.log("x")')
    expect(result).toMatchObject({ isError: false, value: { logs: ['x'] } })
    expect(Object.keys((result as { value: object }).value)).toEqual(['logs'])
  })

  it('a failing program is a CODE_RUN_FAILED result with its captured output', async () => {
    const ctx = await start('code')
    const result = await runCode(ctx, 'console.log("before"); throw new Error("boom")')
    expect(result).toMatchObject({
      isError: true,
      error: { info: { code: 'CODE_RUN_FAILED', name: 'CodeRunFailedError' } },
    })
    expect(textOf(result)).toBe('Error: code run failed (exception): Error: boom\nCaptured output:\nbefore')
  })

  const kinds: CodeRunFailureKind[] = [
    'exception',
    'timeout',
    'abort',
    'worker-exit',
    'output-limit',
    'invalid-output',
  ]
  it.each(kinds)('surfaces the %s failure kind with the exact text', async (kind) => {
    const ctx = await start('code', stubRuntime({ ok: false, kind, message: `${kind} happened`, logs: [] }))
    const result = await runCode(ctx, 'whatever')
    expect(textOf(result)).toBe(`Error: code run failed (${kind}): ${kind} happened`)
    await ctx.fiber.dispose()
    const withLogs = await start('code', stubRuntime({ ok: false, kind, message: 'm', logs: ['a', 'b'] }))
    expect(textOf(await runCode(withLogs, 'whatever'))).toBe(
      `Error: code run failed (${kind}): m\nCaptured output:\na\nb`,
    )
  })

  it('run_code is exclusive and rejects missing arguments before the runtime runs', async () => {
    let runs = 0
    const ctx = await start('code', {
      language: 'typescript',
      run: async () => {
        runs++
        return { ok: true, logs: [] }
      },
    })
    const input = {
      callId: 'x',
      name: 'run_code',
      arguments: { code: 'return 1' },
      signal: new AbortController().signal,
    }
    expect(ctx.tools.executionMode(input)).toBe('exclusive')
    expect(await ctx.tools.execute(input)).toMatchObject({
      isError: true,
      error: { info: { code: 'INVALID_ARGS' } },
    })
    expect(runs).toBe(0)
  })
})

describe('config', () => {
  it.each([0, -2, 1.5, '3'])('rejects maxParallelSubCalls %j when the plugin loads', async (bad) => {
    const ctx = new Context()
    app = ctx
    await ctx.plugin(ToolRuntime, { mode: 'code' })
    ctx.provide('codeRuntime', createInProcessRuntime())
    await expect(async () => ctx.plugin(CodeMode, { maxParallelSubCalls: bad as number })).rejects.toThrow(
      /maxParallelSubCalls must be an integer ≥ 1/,
    )
  })
})

// Forgetting the code runtime plugin: assembly and `run_code` name the runtime packages to load
// (not "load @dsh/tools-codemode", which is loaded, nor "unknown tool"), and the stand-in gives
// way to the real provider while a runtime is loaded. The in-process TEST DOUBLE runtime stands
// in for a real one here; @dsh/code-runtime-worker-thread's newcomer-errors test uses a real one.
import { Context } from '@deepseek-ai/cordis'
import ToolRuntime from '@dsh/tools-core'
import { afterEach, describe, expect, it } from 'vitest'
import * as CodeMode from '../src/plugin'
import { addTool, runCode, textOf } from './fixtures/app'
import { createInProcessRuntime } from './fixtures/in-process-runtime'

let app: Context | undefined
afterEach(async () => {
  await app?.fiber.dispose()
  app = undefined
})

const RUNTIME_HINT =
  /Code Mode is loaded but no code runtime is: load @dsh\/code-runtime-worker-thread \(TypeScript\) or @dsh\/code-runtime-pyodide \(Python\)/

async function withoutRuntime(mode: 'code' | 'both') {
  const ctx = new Context()
  app = ctx
  await ctx.plugin(ToolRuntime, { mode })
  ctx.tools.register(addTool)
  await ctx.plugin(CodeMode)
  return ctx
}

const loadRuntime = (ctx: Context) =>
  ctx.plugin({
    name: 'test-code-runtime',
    apply: (child: Context) => child.provide('codeRuntime', createInProcessRuntime()),
  })

describe('Code Mode without a code runtime', () => {
  it.each(['code', 'both'] as const)(
    'a %s-mode assembly throws CODE_RUNTIME_MISSING naming the runtime packages',
    async (mode) => {
      const ctx = await withoutRuntime(mode)
      expect(() => ctx.tools.assemble({})).toThrow(RUNTIME_HINT)
      let code: unknown
      try {
        ctx.tools.assemble({})
      } catch (error) {
        code = (error as { code?: unknown }).code
      }
      expect(code).toBe('CODE_RUNTIME_MISSING')
    },
  )

  it('a run_code call fails with the same hint, not `unknown tool`', async () => {
    const ctx = await withoutRuntime('code')
    const result = await runCode(ctx, 'return 1')
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(RUNTIME_HINT)
    expect(textOf(result)).not.toMatch(/unknown tool/)
  })

  it('loading a runtime later swaps in the real run_code; unloading it brings the hint back', async () => {
    const ctx = await withoutRuntime('code')
    const runtime = await loadRuntime(ctx)
    expect(ctx.tools.assemble({}).tools.map((tool) => tool.name)).toEqual(['run_code'])
    const ok = await runCode(ctx, 'return await tools.add({ a: 1, b: 2 })')
    expect(ok.isError).toBe(false)
    expect(textOf(ok)).toContain('3')
    await runtime.dispose()
    expect(() => ctx.tools.assemble({})).toThrow(RUNTIME_HINT)
    expect(textOf(await runCode(ctx, 'return 1'))).toMatch(RUNTIME_HINT)
    await loadRuntime(ctx)
    expect((await runCode(ctx, 'return 2')).isError).toBe(false)
  })

  it('disposing the plugin removes the stand-in too: core then names both plugins to load', async () => {
    const ctx = new Context()
    app = ctx
    await ctx.plugin(ToolRuntime, { mode: 'code' })
    const plugin = await ctx.plugin(CodeMode)
    await plugin.dispose()
    expect(() => ctx.tools.assemble({})).toThrow(
      /needs a Code Mode provider, but none is installed: load @dsh\/tools-codemode and a code runtime/,
    )
    const result = await runCode(ctx, 'return 1')
    expect(result.isError && result.error.info?.code).toBe('UNKNOWN_TOOL')
    expect(textOf(result)).toMatch(
      /`run_code` is not available: .*load @dsh\/tools-codemode and a code runtime/,
    )
  })

  it('disposing the plugin while a runtime is loaded leaves neither provider behind', async () => {
    const ctx = new Context()
    app = ctx
    await ctx.plugin(ToolRuntime, { mode: 'code' })
    await loadRuntime(ctx)
    const plugin = await ctx.plugin(CodeMode)
    expect(ctx.tools.assemble({}).tools.map((tool) => tool.name)).toEqual(['run_code'])
    await plugin.dispose()
    expect(() => ctx.tools.assemble({})).toThrow(/needs a Code Mode provider, but none is installed/)
    // A fresh load installs cleanly (no stand-in was left installed to collide with).
    await ctx.plugin(CodeMode)
    expect((await runCode(ctx, 'return 1')).isError).toBe(false)
  })
})

/**
 * Policy applies to MCP tools exactly as to local tools — natively and from a `run_code`
 * program on the real worker-thread runtime — and MCP tools appear in the Code Mode SDK.
 */
import type { Context } from '@deepseek-ai/cordis'
import WorkerThreadCodeRuntime from '@dsh/code-runtime-worker-thread'
import * as CodeMode from '@dsh/tools-codemode'
import { defineTool, type ToolExecutionResult } from '@dsh/tools-core'
import { afterEach, describe, expect, it } from 'vitest'
import { call, createApp, inMemoryFixture, loadMcp, textOf } from './fixtures/app'

const localEcho = defineTool({
  name: 'local_echo',
  description: 'Echo text back (local).',
  parameters: { text: { type: 'string', required: true } },
  output: {
    schema: { type: 'json' },
    render: (_args, value) => [{ type: 'text', text: JSON.stringify(value) }],
  },
  execute: (args) => [{ type: 'text', text: args.text }],
})

/** deny `forbidden`, ask for `ask me` (approval approves `ask me please`), guard `guarded`, post-execute redacts `secret`. */
async function installPolicy(ctx: Context) {
  const seen = { asked: 0, guarded: 0, post: 0 }
  const text = (args: unknown) => String((args as { text?: unknown }).text ?? '')
  await ctx.plugin({
    name: 'test-policy',
    inject: ['tools'],
    apply(child: Context) {
      child.provide('approval', {
        request: async (exec: { arguments: unknown }) => {
          seen.asked++
          return text(exec.arguments).includes('please')
            ? { approved: true }
            : { approved: false, reason: 'not polite' }
        },
      })
      child.on('tools/pre-execute', async (exec, next) => {
        const value = text(exec.arguments)
        if (value.includes('forbidden')) return { kind: 'deny', reason: 'forbidden word' }
        if (value.includes('ask me')) return { kind: 'ask', reason: 'asks' }
        return next()
      })
      child.tools.guard((exec) => {
        if (!text(exec.arguments).includes('guarded')) return undefined
        seen.guarded++
        return 'guard says no'
      })
      child.on('tools/post-execute', async (_exec, result, next) => {
        seen.post++
        if (!result.isError && JSON.stringify(result.value).includes('secret')) {
          return { kind: 'accept', content: [{ type: 'text', text: '[redacted]' }] }
        }
        return next()
      })
    },
  })
  return seen
}

const INPUTS = ['plain', 'forbidden', 'ask me', 'ask me please', 'guarded', 'a secret'] as const
const summary = (result: ToolExecutionResult) =>
  result.isError
    ? `${result.error.info?.code}: ${result.error.message}`
    : textOf(result).replace(/^\[.*"text":"(.*)"\}\]$/, '$1')

let app: Context | undefined
afterEach(async () => {
  await app?.fiber.dispose()
  app = undefined
})

describe('policy on MCP tools', () => {
  it('deny / ask / guard / post-execute give an MCP tool the same outcomes as a local tool (native)', async () => {
    const { ctx } = await createApp('native')
    app = ctx
    await loadMcp(ctx, { name: 'fx', transport: inMemoryFixture().transport })
    ctx.tools.register(localEcho)
    const seen = await installPolicy(ctx)
    for (const text of INPUTS) {
      const mcp = await call(ctx, 'fx__echo', { text })
      const local = await call(ctx, 'local_echo', { text })
      expect({ text, ...pick(mcp) }).toEqual({ text, ...pick(local) })
    }
    expect(seen.asked).toBe(4)
    expect(seen.guarded).toBe(2)
    expect(seen.post).toBe(6)
  })

  it('a run_code program calling MCP tools goes through the same pipeline per sub-call (worker-thread runtime)', async () => {
    const { ctx } = await createApp('code')
    app = ctx
    await ctx.plugin(WorkerThreadCodeRuntime, { maxConcurrentRuns: 1 })
    await ctx.plugin(CodeMode, {})
    await loadMcp(ctx, { name: 'fx', transport: inMemoryFixture().transport })
    const seen = await installPolicy(ctx)
    const subCalls: string[] = []
    ctx.on('tools/result', (exec, result) => {
      if (exec.parent !== undefined)
        subCalls.push(`${exec.name}:${result.isError ? result.error.info?.code : 'ok'}`)
    })
    const sdk = ctx.tools.assemble().sections.find((section) => section.id === 'tools:sdk')?.text ?? ''
    expect(sdk).toContain('fx__echo')
    expect(sdk).toContain('fx__add')
    const program = `
      const out = []
      for (const text of ${JSON.stringify(INPUTS)}) {
        try { out.push(JSON.stringify(await tools.fx__echo({ text }))) } catch (error) { out.push('error: ' + error.message) }
      }
      out.push(JSON.stringify(await tools.fx__add({ a: 20, b: 22 })))
      return out`
    const result = await ctx.tools.execute({
      callId: 'run-1',
      name: 'run_code',
      arguments: { code: program, description: 'mcp from code' },
      signal: new AbortController().signal,
    })
    expect(result.isError).toBe(false)
    const out = (result.isError ? [] : (result.value as { result: string[] }).result) as string[]
    expect(out[0]).toBe('[{"type":"text","text":"plain"}]')
    expect(out[1]).toMatch(/^error: .*forbidden word/)
    expect(out[2]).toMatch(/^error: .*not polite/)
    expect(out[3]).toBe('[{"type":"text","text":"ask me please"}]')
    expect(out[4]).toMatch(/^error: .*guard says no/)
    // Code Mode programs see values, never truncated or redacted content.
    expect(out[5]).toBe('[{"type":"text","text":"a secret"}]')
    expect(out[6]).toBe('{"sum":42}')
    expect(subCalls).toEqual([
      'fx__echo:ok',
      'fx__echo:DENIED',
      'fx__echo:DENIED',
      'fx__echo:ok',
      'fx__echo:DENIED',
      'fx__echo:ok',
      'fx__add:ok',
    ])
    expect(seen.asked).toBe(2)
    expect(seen.guarded).toBe(1)
  })
})

describe('MCP progress in Code Mode', () => {
  it('a run_code sub-call’s MCP progress reaches tools/progress with the sub-call’s execution', async () => {
    const { ctx } = await createApp('code')
    app = ctx
    await ctx.plugin(WorkerThreadCodeRuntime, { maxConcurrentRuns: 1 })
    await ctx.plugin(CodeMode, {})
    await loadMcp(ctx, { name: 'fx', transport: inMemoryFixture().transport })
    const seen: { name: string; parent: boolean; progress: number | undefined }[] = []
    ctx.on('tools/progress', (execution, update) => {
      seen.push({ name: execution.name, parent: execution.parent !== undefined, progress: update.progress })
    })
    const result = await ctx.tools.execute({
      callId: 'run-progress',
      name: 'run_code',
      arguments: { code: 'return await tools.fx__progress({ steps: 3, ms: 0 })', description: 'progress' },
      signal: new AbortController().signal,
    })
    expect(result.isError).toBe(false)
    expect(seen.filter((entry) => entry.name === 'fx__progress')).toEqual([
      { name: 'fx__progress', parent: true, progress: 1 },
      { name: 'fx__progress', parent: true, progress: 2 },
      { name: 'fx__progress', parent: true, progress: 3 },
    ])
  })
})

function pick(result: ToolExecutionResult) {
  return result.isError
    ? { isError: true, code: result.error.info?.code, message: result.error.message }
    : { isError: false, value: result.value, content: summary(result) }
}

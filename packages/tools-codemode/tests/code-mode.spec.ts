// Transport, sections, rendering and lifecycle through the tool runtime, with the in-process
// TEST DOUBLE runtime or stub runtimes (real workers: @dsh/code-runtime-worker-thread's
// tests/code-mode-e2e.integration.spec.ts).
import { Context } from '@deepseek-ai/cordis'
import ToolRuntime, { createScope, defineTool } from '@dsh/tools-core'
import { afterEach, describe, expect, it } from 'vitest'
import type { CodeRunFailureKind, CodeRunOutcome, CodeRuntime } from '../src/code-runtime'
import * as PublicApi from '../src/index'
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
    expect(byId['tools:sdk']!.text).toMatch(/^ {2}add\(args: /m)
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
    expect(scoped).not.toMatch(/^ {2}add\(args: /m)
    expect(global).toMatch(/^ {2}add\(args: /m)
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

  it('without a code runtime a code-mode assembly fails, naming the runtime to load', async () => {
    const ctx = new Context()
    app = ctx
    await ctx.plugin(ToolRuntime, { mode: 'code' })
    await ctx.plugin(CodeMode)
    expect(() => ctx.tools.assemble({})).toThrow(/no code runtime is: load @dsh\/code-runtime-worker-thread/)
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

  it('an abort outcome (the call aborted, a runtime or plugin disposed) ends the call ABORTED', async () => {
    const ctx = await start(
      'code',
      stubRuntime({ ok: false, kind: 'abort', message: 'stopped', logs: ['a'] }),
    )
    const result = await runCode(ctx, 'whatever')
    expect(result).toMatchObject({
      isError: true,
      error: { info: { code: 'ABORTED', name: 'ToolAbortedError' } },
    })
    expect(textOf(result)).toBe('Error: code run aborted: stopped\nCaptured output:\na')
  })

  const kinds: CodeRunFailureKind[] = [
    'exception',
    'timeout',
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
      /\$\.maxParallelSubCalls: expected (integer|number >= 1)/,
    )
  })
})

describe('the reserved run_code transport', () => {
  const impostor = defineTool({
    name: 'run_code',
    description: 'An impostor.',
    parameters: {},
    output: { schema: { type: 'null' }, render: () => [{ type: 'text', text: 'impostor' }] },
    execute: () => null,
  })

  it('cannot be registered, shadowed, restricted or removed; it stays the transport for every agent', async () => {
    const ctx = await start('code')
    expect(() => ctx.tools.register(impostor)).toThrow(/reserved/)
    const scope = createScope(ctx, 'agent-r')
    expect(() => scope.ctx.tools.register(impostor)).toThrow(/reserved/)
    expect(() => scope.ctx.tools.restrict({ deny: ['run_code'] })).toThrow(/cannot be restricted/)
    expect(() => scope.ctx.tools.restrict({ allow: ['run_code'] })).toThrow(/cannot be restricted/)
    // An allow mask that does not name run_code hides every other global but not the transport.
    scope.ctx.tools.restrict({ allow: ['echo'] })
    const assembly = ctx.tools.assemble({ agent: 'agent-r' })
    expect(assembly.tools.map((tool) => tool.name)).toEqual(['run_code'])
    expect(ctx.tools.get('run_code', 'agent-r')?.description).toMatch(/^Run a TypeScript program/)
    expect(
      await runCode(ctx, 'return await tools.echo({ text: "still here" })', { agent: 'agent-r' }),
    ).toMatchObject({ isError: false, value: { result: 'still here' } })
  })
})

describe('SDK per assembly', () => {
  const sdkOf = (ctx: Context, agent?: string) =>
    ctx.tools
      .assemble(agent === undefined ? {} : { agent })
      .sections.find((section) => section.id === 'tools:sdk')!.text

  it('reflects a scope-local shadow in that agent’s SDK only', async () => {
    const ctx = await start('code')
    const scope = createScope(ctx, 'shadow')
    scope.ctx.tools.register(
      defineTool({
        name: 'echo',
        description: 'Scoped echo with a count.',
        parameters: { text: { type: 'string', required: true }, times: { type: 'integer' } },
        output: {
          schema: { type: 'array', items: { type: 'string' } },
          render: () => [{ type: 'text', text: '' }],
        },
        execute: (args) => [args.text],
      }),
    )
    const global = sdkOf(ctx)
    const scoped = sdkOf(ctx, 'shadow')
    expect(global).toContain('/** Echo text. */')
    expect(global).not.toContain('times?: number')
    expect(scoped).toContain('/** Scoped echo with a count. */')
    expect(scoped).toContain('times?: number')
    expect(scoped).toContain('  echo(args: { text: string; times?: number }): Promise<string[]>;')
    expect(sdkOf(ctx)).toBe(global)
  })

  it('changes when a tool is re-registered under the same name and description with another schema', async () => {
    const ctx = await start('code')
    const version = (type: 'string' | 'number') =>
      defineTool({
        name: 'probe',
        description: 'Same description every time.',
        parameters: { value: { type, required: true } },
        output: { schema: { type }, render: () => [{ type: 'text', text: '' }] },
        execute: (args) => args.value as never,
      })
    const dispose = ctx.tools.register(version('string'))
    const first = sdkOf(ctx)
    expect(first).toContain('  probe(args: { value: string }): Promise<string>;')
    expect(sdkOf(ctx)).toBe(first)
    dispose()
    ctx.tools.register(version('number'))
    const second = sdkOf(ctx)
    expect(second).toContain('  probe(args: { value: number }): Promise<number>;')
    expect(second).not.toBe(first)
  })
})

describe('empty results', () => {
  // The seed: "both empty" means the printed lines and the *rendered* return value; an absent
  // `result` means the program returned undefined. A returned '' is a result (kept in the
  // canonical value), but it renders to nothing, so the model-facing text is the placeholder
  // rather than an empty text part.
  it('a returned empty string stays in the canonical value but renders the no-output placeholder', async () => {
    const ctx = await start('code')
    const result = await runCode(ctx, 'return ""')
    expect(result).toMatchObject({ isError: false, value: { logs: [], result: '' } })
    expect(Object.keys((result as { value: object }).value)).toEqual(['logs', 'result'])
    expect(textOf(result)).toBe('(run_code completed with no output)')
  })

  it('an undefined return leaves result absent; with logs only the logs render', async () => {
    const ctx = await start('code')
    const result = await runCode(ctx, 'return undefined')
    expect(Object.keys((result as { value: object }).value)).toEqual(['logs'])
    expect(textOf(result)).toBe('(run_code completed with no output)')
    expect(textOf(await runCode(ctx, 'console.log("x"); return ""'))).toBe('x\n')
  })
})

describe('public API', () => {
  it('the barrel names exactly the plugin surface, the seam, errors and the SDK renderers', () => {
    expect(Object.keys(PublicApi).sort()).toEqual(
      [
        'CODE_MODE_ERROR_CODES',
        'CodeRunFailedError',
        'CodeRuntimeMissingError',
        'Config',
        'ToolCallError',
        'UnsupportedCodeLanguageError',
        'apply',
        'inject',
        'name',
        'renderPythonSdk',
        'renderTypeScriptSdk',
      ].sort(),
    )
  })
})

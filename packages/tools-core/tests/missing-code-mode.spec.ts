// A non-native presentation mode with no Code Mode provider: assembly and a `run_code` call
// name both plugins Code Mode needs (the transport package and a code runtime).
import { describe, expect, it } from 'vitest'
import { closestNames } from '../src/index'
import { call, createRuntime, echoTool } from './fixtures/runtime'

const LOAD_BOTH =
  /load @dsh\/tools-codemode and a code runtime \(@dsh\/code-runtime-worker-thread for TypeScript or @dsh\/code-runtime-pyodide for Python\)/

describe('no Code Mode provider', () => {
  it.each(['code', 'both'] as const)(
    'a %s-mode assembly names the transport plugin and a code runtime',
    async (mode) => {
      const ctx = await createRuntime({ mode })
      expect(() => ctx.tools.assemble()).toThrow(LOAD_BOTH)
      await ctx.fiber.dispose()
    },
  )

  it('a run_code call in code mode is UNKNOWN_TOOL that says what to load', async () => {
    const ctx = await createRuntime({ mode: 'code' })
    ctx.tools.register(echoTool())
    const result = await ctx.tools.execute(call('run_code', { code: 'return 1', description: 'x' }))
    expect(result.isError && result.error.info?.code).toBe('UNKNOWN_TOOL')
    expect(result.isError && result.error.message).toMatch(
      /`run_code` is not available: presentation mode `code` needs a Code Mode provider/,
    )
    expect(result.isError && result.error.message).toMatch(LOAD_BOTH)
    await ctx.fiber.dispose()
  })

  it('in native mode run_code stays a plain unknown tool (Code Mode was not asked for)', async () => {
    const ctx = await createRuntime({ mode: 'native' })
    const result = await ctx.tools.execute(call('run_code', {}))
    expect(result.isError && result.error.message).toBe('unknown tool: run_code')
    await ctx.fiber.dispose()
  })
})

describe('closestNames (public: the "did you mean" of UNKNOWN_TOOL)', () => {
  it('suggests close names best first, and none for a far one', () => {
    expect(closestNames('get_wether', ['get_weather', 'set_weather', 'read'])).toEqual([
      'get_weather',
      'set_weather',
    ])
    expect(closestNames('zzz', ['get_weather'])).toEqual([])
  })
})

import { Context } from '@deepseek-ai/cordis'
import { describe, expect, it } from 'vitest'
import ToolRuntime, { type ToolRuntimeConfig } from '../src/index'

describe('ToolRuntime config keys', () => {
  it('an unknown (misspelt) key fails the config and names the keys there are', async () => {
    const ctx = new Context()
    await expect(ctx.plugin(ToolRuntime, { foramts: 'assert' } as ToolRuntimeConfig)).rejects.toThrow(
      /unknown config key "foramts" \(the keys are mode, resultBudget, formats, disposeGraceMs, valueLimits\)/,
    )
    expect((ctx as { tools?: unknown }).tools).toBeUndefined()
  })

  it('every documented key is accepted together', async () => {
    const ctx = new Context()
    await ctx.plugin(ToolRuntime, {
      mode: 'native',
      resultBudget: { maxContentBytes: 4096 },
      formats: 'assert',
      disposeGraceMs: 500,
      valueLimits: { maxDepth: 64 },
    })
    expect(ctx.tools.assemble({}).mode).toBe('native')
    await ctx.fiber.dispose()
  })
})

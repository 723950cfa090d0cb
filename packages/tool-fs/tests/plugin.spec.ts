import { Context } from '@deepseek-ai/cordis'
import ToolRuntime from '@dsh/tools-core'
import { describe, expect, it } from 'vitest'
import { Config, FS_TOOLS_DEFAULTS, validateFsToolsConfig } from '../src/config'
import * as toolFs from '../src/index'
import { tempDir } from './fixtures/temp-dir'

describe('Config', () => {
  it('fills in defaults, with roots defaulting to the working directory', () => {
    const result = validateFsToolsConfig(undefined)
    expect(result.issues).toBeUndefined()
    expect(result).toMatchObject({ value: { ...FS_TOOLS_DEFAULTS, roots: [process.cwd()] } })
  })

  it('rejects unknown keys, bad numbers and bad roots, listing every issue', () => {
    const result = Config['~standard'].validate({
      roots: [],
      maxReadLines: 0,
      colour: 'blue',
      requireReadBeforeWrite: 'yes',
    })
    expect(result.issues).toEqual([
      { message: '$.roots: expected at least 1 item, got 0', path: ['roots'] },
      { message: '$.requireReadBeforeWrite: expected boolean, got string', path: ['requireReadBeforeWrite'] },
      { message: '$.maxReadLines: expected number >= 1, got 0', path: ['maxReadLines'] },
      { message: '$.colour: unexpected property "colour"', path: ['colour'] },
    ])
  })

  it('resolves relative roots to absolute paths', () => {
    expect(validateFsToolsConfig({ roots: ['some/dir'] })).toMatchObject({
      value: { roots: [`${process.cwd()}/some/dir`] },
    })
  })
})

describe('plugin', () => {
  it('registers the five tools, which end with the plugin fiber', async () => {
    const root = await tempDir()
    const ctx = new Context()
    await ctx.plugin(ToolRuntime)
    const fiber = await ctx.plugin(toolFs, { roots: [root] })
    expect(
      ctx.tools
        .schemas()
        .map((schema) => schema.name)
        .sort(),
    ).toEqual(['edit', 'glob', 'grep', 'read', 'write'])
    expect(ctx.tools.schemas().find((schema) => schema.name === 'read')!.parameters).toMatchObject({
      type: 'object',
      required: ['file_path'],
    })
    await fiber.dispose()
    expect(ctx.tools.schemas()).toEqual([])
  })

  it('refuses to start with an invalid config or a missing root', async () => {
    const ctx = new Context()
    await ctx.plugin(ToolRuntime)
    await expect(ctx.plugin(toolFs, { roots: ['/no/such/root/anywhere'] })).rejects.toThrow(/does not exist/)
    await expect(ctx.plugin(toolFs, { maxReadLines: -1 } as never)).rejects.toThrow()
  })
})

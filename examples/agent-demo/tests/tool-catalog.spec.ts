// docs/tool-catalog.md must say what the shipped tools really do with their default config.
// (The generator, scripts/tool-catalog.ts, runs against dist; `pnpm catalog:check` in CI proves
// the file is current. These tests prove it is true, against the sources.)
import { readFile } from 'node:fs/promises'
import { Context } from '@deepseek-ai/cordis'
import * as bashTool from '@dsh/tool-bash'
import ToolRuntime from '@dsh/tools-core'
import { describe, expect, it } from 'vitest'

const catalog = await readFile(new URL('../../../docs/tool-catalog.md', import.meta.url), 'utf8')

/** The fenced description of one tool section in the catalog. */
function catalogDescription(tool: string): string {
  const section = catalog.split(`\n## ${tool}\n`)[1]
  const match = section?.match(/```text\n([\s\S]*?)\n```/)
  if (!match?.[1]) throw new Error(`no description for ${tool} in the catalog`)
  return match[1]
}

async function liveDescription(config?: Record<string, unknown>): Promise<string> {
  const ctx = new Context()
  try {
    await ctx.plugin(ToolRuntime, { mode: 'native' })
    await ctx.plugin(bashTool, config)
    const schema = ctx.tools.schemas().find((entry) => entry.name === 'bash')
    if (!schema) throw new Error('bash is not registered')
    return schema.description
  } finally {
    await ctx.fiber.dispose()
  }
}

describe('tool catalog', () => {
  it("bash's entry is the default-config description, with the working directory as <process.cwd()>", async () => {
    const live = await liveDescription()
    expect(live).toContain(`Runs in ${process.cwd()} unless`)
    expect(catalogDescription('bash')).toBe(live.split(process.cwd()).join('<process.cwd()>'))
  })

  it('names no working directory the default config does not use', async () => {
    expect(catalog).not.toContain('/workspace')
    // a configured workdir would show up in the description, so the catalog shows none
    expect(await liveDescription({ workdir: '/tmp' })).toContain('Runs in /tmp unless')
    expect(catalogDescription('bash')).not.toContain('Runs in /tmp')
  })

  it('explains the placeholder', () => {
    expect(catalog).toContain("`<process.cwd()>` stands for the host process's working")
  })
})

// Workload of deferred tools: the bytes a 300-tool set costs in every request (native function
// definitions as JSON plus the prompt sections, i.e. the Code Mode SDK) when every tool is
// deferred, against none deferred, in the same run. The tool shapes are the Code Mode SDK
// snapshot fixture's (exotic names, nested objects, enums, oneOf), repeated with numbered names.
import { Context } from '@deepseek-ai/cordis'
import * as CodeMode from '@dsh/tools-codemode'
import ToolRuntime, { type ToolDefinition, type ToolPresentationMode } from '@dsh/tools-core'
import { VARIED_TOOLS } from '../packages/tools-codemode/tests/fixtures/varied-tools'
import type { BenchRow } from './types'

const COUNT = 300

/** The renderer corpus also holds names the registry refuses (e.g. `$dollar`); only valid ones register. */
const SHAPES = VARIED_TOOLS.filter((shape) => /^[A-Za-z0-9_-]{1,58}$/.test(shape.name))

function toolSet(): ToolDefinition[] {
  const out: ToolDefinition[] = []
  for (let i = 0; out.length < COUNT; i++) {
    const shape = SHAPES[i % SHAPES.length]!
    out.push({
      name: `${shape.name}_${i}`,
      description: shape.description,
      parameters: shape.parameters,
      output: { schema: shape.outputSchema, render: () => [{ type: 'text', text: 'ok' }] },
      execute: () => null,
    })
  }
  return out
}

async function assemblyBytes(mode: ToolPresentationMode, deferAll: boolean): Promise<number> {
  const ctx = new Context()
  await ctx.plugin(ToolRuntime, { mode })
  // A language-only runtime: assembly never runs code, so no worker is needed.
  await ctx.plugin({
    name: 'bench-code-runtime',
    apply: (child: Context) =>
      child.provide('codeRuntime', { language: 'typescript', run: async () => ({ ok: true, logs: [] }) }),
  })
  await ctx.plugin(CodeMode)
  for (const tool of toolSet()) ctx.tools.register(tool)
  if (deferAll) ctx.tools.defer(() => true)
  const assembly = ctx.tools.assemble({})
  const bytes =
    Buffer.byteLength(JSON.stringify(assembly.tools)) +
    assembly.sections.reduce((sum, section) => sum + Buffer.byteLength(section.text), 0)
  await ctx.fiber.dispose()
  return bytes
}

export default async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  for (const mode of ['native', 'code', 'both'] as const) {
    const full = await assemblyBytes(mode, false)
    const deferred = await assemblyBytes(mode, true)
    const workload = `deferred_assembly (${mode}): ${COUNT} tools`
    rows.push(
      { workload, metric: 'none deferred', value: full, unit: 'bytes' },
      { workload, metric: 'all deferred', value: deferred, unit: 'bytes', note: 'tool_search only' },
      { workload, metric: 'all / none', value: deferred / full, unit: 'ratio', note: 'lower is better' },
    )
  }
  return rows
}

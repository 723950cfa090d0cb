// sdk_size: bytes of the TypeScript `tools:sdk` text for the 300 varied tools of codemode.ts,
// ours against the published upstream package (`@deepseek-ai/dsh-tools`, the DeepSeek Harness
// tools layer this project descends from) rendering the very same schemas in the same run.
// Every model turn in Code Mode pays for these bytes; the target is ≤ 0.8× upstream.
// Also times both renderers on a cold render (no fragment cache on our side) so a size win
// never hides a speed loss.
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Context } from '@deepseek-ai/cordis'
import { renderPythonSdk, renderTypeScriptSdk } from '@dsh/tools-codemode'
import ToolRuntime, { type ToolSchema } from '@dsh/tools-core'
import { variedTools } from './codemode'
import type { BenchRow } from './types'

interface UpstreamSdkSchema {
  name: string
  description: string
  parameters: unknown
  output: unknown
}

/**
 * Upstream's SDK renderer. Its package `exports` map does not expose the module, so it is
 * loaded by file path from the installed package (a devDependency of this bench).
 */
async function upstreamRenderer(): Promise<(schemas: UpstreamSdkSchema[]) => string> {
  const require = createRequire(import.meta.url)
  const root = dirname(require.resolve('@deepseek-ai/dsh-tools/package.json'))
  const module = (await import(pathToFileURL(join(root, 'lib/types/ts-types.js')).href)) as {
    renderToolsSdk: (schemas: UpstreamSdkSchema[]) => string
  }
  return module.renderToolsSdk
}

async function schemasOf(count: number): Promise<readonly ToolSchema[]> {
  const ctx = new Context()
  await ctx.plugin(ToolRuntime, { mode: 'code' })
  for (const tool of variedTools(count)) ctx.tools.register(tool)
  const schemas = ctx.tools.schemas()
  await ctx.fiber.dispose()
  return schemas
}

function perRender(render: () => string, rounds: number): number {
  const start = performance.now()
  for (let i = 0; i < rounds; i++) render()
  return (performance.now() - start) / rounds
}

export default async function run(): Promise<BenchRow[]> {
  const schemas = await schemasOf(300)
  const upstream = await upstreamRenderer()
  const upstreamInput = schemas.map((schema) => ({
    name: schema.name,
    description: schema.description,
    parameters: schema.parameters,
    output: schema.outputSchema,
  }))
  const bytes = (text: string) => Buffer.byteLength(text, 'utf8')
  const ours = bytes(renderTypeScriptSdk(schemas))
  const theirs = bytes(upstream(upstreamInput))
  const python = bytes(renderPythonSdk(schemas))
  // Fresh copies defeat our per-tool fragment cache, so both sides render from scratch.
  const fresh = () => schemas.map((schema) => ({ ...schema, parameters: structuredClone(schema.parameters) }))
  const oursMs = perRender(() => renderTypeScriptSdk(fresh()), 30)
  const oursWarmMs = perRender(() => renderTypeScriptSdk(schemas), 500)
  const pythonWarmMs = perRender(() => renderPythonSdk(schemas), 200)
  const theirsMs = perRender(() => upstream(upstreamInput), 30)
  const workload = 'sdk_size: tools:sdk text for 300 varied tools'
  return [
    { workload, metric: 'TypeScript SDK, ours', value: ours, unit: 'bytes' },
    { workload, metric: 'TypeScript SDK, upstream @deepseek-ai/dsh-tools', value: theirs, unit: 'bytes' },
    {
      workload,
      metric: 'ours / upstream',
      value: ours / theirs,
      unit: 'ratio',
      note: 'target ≤ 0.8; 1.12 (189,373 bytes) at 0f65238, before h12c',
    },
    { workload, metric: 'Python SDK, ours', value: python, unit: 'bytes' },
    { workload, metric: 'cold TS render, ours / upstream', value: oursMs / theirsMs, unit: 'ratio' },
    { workload, metric: 'TS render, cached fragments', value: oursWarmMs, unit: 'ms/render' },
    { workload, metric: 'Python render, cached fragments', value: pythonWarmMs, unit: 'ms/render' },
  ]
}

/**
 * The mcp-bridge scenario as a function (the CLI in `main.ts` prints its transcript; the test
 * asserts on it): a real MCP server from npm (`@modelcontextprotocol/server-filesystem`, over
 * stdio, confined to a temp dir) through the dsh pipeline with the example policy plugin active,
 * in native and in Code Mode; then the dsh reference file tools served over MCP to an SDK client.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { Context } from '@deepseek-ai/cordis'
import WorkerThreadCodeRuntime from '@dsh/code-runtime-worker-thread'
import * as Policy from '@dsh/example-policy-plugin'
import * as FsTools from '@dsh/tool-fs'
import * as CodeMode from '@dsh/tools-codemode'
import ToolRuntime, { createScope, type ToolExecutionResult } from '@dsh/tools-core'
import McpClient, { serveMcp } from '@dsh/tools-mcp'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'

/** The filesystem server's entry script, from its package.json `bin`. */
function filesystemServerScript(): string {
  const require = createRequire(import.meta.url)
  const manifest = require.resolve('@modelcontextprotocol/server-filesystem/package.json')
  const { bin } = require(manifest) as { bin: Record<string, string> }
  return join(dirname(manifest), bin['mcp-server-filesystem']!)
}

const brief = (result: ToolExecutionResult): string => {
  const text = result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join(' ')
  const oneLine = text.replace(/\s+/g, ' ').trim()
  return `${result.isError ? 'ERROR ' : ''}${oneLine.length > 160 ? `${oneLine.slice(0, 160)}…` : oneLine}`
}

/** Run the scenario; every line of the transcript goes to `log`. */
export async function runBridge(log: (line: string) => void): Promise<void> {
  const workspace = await mkdtemp(join(tmpdir(), 'dsh-mcp-bridge-'))
  await mkdir(join(workspace, 'docs'))
  await writeFile(
    join(workspace, 'docs', 'notes.md'),
    '# Notes\n\nDeploy with api_key=sk-live-0123456789abcdefXYZ\n',
  )
  await writeFile(join(workspace, '.env'), 'TOKEN=do-not-read\n')
  const ctx = new Context()
  try {
    await ctx.plugin(ToolRuntime, { mode: 'native' })
    await ctx.plugin(WorkerThreadCodeRuntime, { maxConcurrentRuns: 1 })
    await ctx.plugin(CodeMode, {})
    ctx.on('mcp/warning', (warning) =>
      log(`warning: [${warning.server}] ${warning.tool ?? ''} ${warning.message}`),
    )
    await ctx.plugin(Policy, {
      askFor: ['fs__write_file'],
      rules: [
        {
          tool: 'fs__write_file',
          argument: 'path',
          pattern: '\\.md$',
          approved: true,
          reason: 'Markdown is fine',
        },
        { tool: '*', approved: false, reason: 'no rule allows it' },
      ],
      denyArguments: ['\\.env$'],
    })
    log(`== MCP client: @modelcontextprotocol/server-filesystem over stdio, confined to ${workspace}`)
    await ctx.plugin(McpClient, {
      name: 'fs',
      transport: { command: process.execPath, args: [filesystemServerScript(), workspace] },
      trustAnnotations: true,
      timeoutMs: 30_000,
    })
    const registered = ctx.tools.schemas().map((schema) => schema.name)
    log(`registered ${registered.length} tools: ${registered.join(', ')}`)

    log('== native: a scripted task through the pipeline (policy active)')
    let n = 0
    const step = async (name: string, args: Record<string, unknown>) => {
      const result = await ctx.tools.execute({
        callId: `native-${++n}`,
        name,
        arguments: args,
        signal: AbortSignal.timeout(60_000),
      })
      log(`${name}(${JSON.stringify(args)}) → ${brief(result)}`)
      return result
    }
    await step('fs__list_directory', { path: workspace })
    await step('fs__read_text_file', { path: join(workspace, 'docs', 'notes.md') })
    await step('fs__read_text_file', { path: join(workspace, '.env') })
    await step('fs__write_file', {
      path: join(workspace, 'docs', 'todo.md'),
      content: '- ship the MCP bridge\n',
    })
    await step('fs__write_file', { path: join(workspace, 'run.sh'), content: 'rm -rf /\n' })
    await step('fs__read_text_file', { path: '/etc/hostname' })

    log('== Code Mode: one run_code program, every sub-call through the same pipeline')
    const coder = createScope(ctx, 'coder')
    coder.ctx.tools.presentAs('code')
    const sdk =
      ctx.tools.assemble({ agent: 'coder' }).sections.find((section) => section.id === 'tools:sdk')?.text ??
      ''
    log(`SDK section mentions fs__read_text_file: ${sdk.includes('fs__read_text_file')}`)
    coder.ctx.on('tools/result', (exec, result) => {
      if (exec.parent !== undefined)
        log(`  sub-call ${exec.name} → ${result.isError ? `ERROR ${result.error.message}` : 'ok'}`)
    })
    const program = `
      const listing = await tools.fs__list_directory({ path: ${JSON.stringify(join(workspace, 'docs'))} })
      const todo = await tools.fs__read_text_file({ path: ${JSON.stringify(join(workspace, 'docs', 'todo.md'))} })
      let env = 'unread'
      try { await tools.fs__read_text_file({ path: ${JSON.stringify(join(workspace, '.env'))} }) } catch (error) { env = 'refused: ' + error.message }
      return { listing, todo, env }`
    const run = await ctx.tools.execute({
      callId: 'code-1',
      name: 'run_code',
      arguments: { code: program, description: 'read the docs folder' },
      signal: AbortSignal.timeout(60_000),
      agent: 'coder',
    })
    log(`run_code → ${brief(run)}`)
    await coder.dispose()

    log('== MCP server: the dsh reference file tools served to an SDK client (Streamable HTTP, 127.0.0.1)')
    const served = createScope(ctx, 'served')
    await served.ctx.plugin(FsTools, { roots: [workspace] })
    // The served agent sees the globals (the MCP fs__ tools) too; show it only the local ones.
    served.ctx.tools.restrict({ deny: ctx.tools.schemas().map((schema) => schema.name) })
    const handle = await serveMcp(ctx, { agent: 'served', transport: { port: 0 } })
    const client = new Client({ name: 'mcp-bridge-demo', version: '1.0.0' })
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(handle.url!)))
      const { tools } = await client.listTools()
      log(`served at ${handle.url}: ${tools.map((tool) => tool.name).join(', ')}`)
      const read = await client.callTool({
        name: 'read',
        arguments: { file_path: join(workspace, 'docs', 'todo.md') },
      })
      log(`read(todo.md) → ${JSON.stringify(read.content).slice(0, 160)}`)
      const secret = await client.callTool({
        name: 'read',
        arguments: { file_path: join(workspace, 'docs', 'notes.md') },
      })
      log(`read(notes.md) → ${JSON.stringify(secret.content).slice(0, 200)}`)
    } finally {
      await client.close()
      await handle.close()
      await served.dispose()
    }
  } finally {
    await ctx.fiber.dispose()
    await rm(workspace, { recursive: true, force: true })
  }
}

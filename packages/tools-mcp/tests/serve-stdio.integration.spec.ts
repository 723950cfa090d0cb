import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { describe, expect, it } from 'vitest'
import { isAlive, until } from './fixtures/app'

const SERVE_STDIO = fileURLToPath(new URL('./fixtures/serve-stdio.ts', import.meta.url))

describe('serveMcp over stdio', () => {
  it('the official SDK client spawns a dsh runtime, lists and calls its tools, and the process exits on close', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--conditions=@dsh/source', '--import', 'tsx', SERVE_STDIO],
      stderr: 'pipe',
    })
    const client = new Client({ name: 'stdio-test', version: '1' })
    await client.connect(transport)
    const pid = transport.pid!
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name).sort()).toEqual(['add', 'stat', 'wait', 'wipe'])
    const result = await client.callTool({ name: 'add', arguments: { a: 20, b: 22 } })
    expect(result.structuredContent).toEqual({ value: 42 })
    await client.close()
    await until(() => !isAlive(pid))
  })
})

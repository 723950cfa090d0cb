import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { scriptCommand } from '@dsh/tools-codemode/testing'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { describe, expect, it } from 'vitest'
import { isAlive, until } from './fixtures/app'

/** The serving runtime bundled into one module: a sixth of the start cost of `--import tsx`. */
const SERVE_STDIO = await scriptCommand(fileURLToPath(new URL('./fixtures/serve-stdio.ts', import.meta.url)))

describe('serveMcp over stdio', () => {
  it('the official SDK client spawns a dsh runtime, lists and calls its tools, and the process exits on close', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: SERVE_STDIO,
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

describe('serveMcp over stdio: request limits', () => {
  // 75k keys are 150k JSON nodes (a member counts two): past the default 100 000 of maxNodes.
  it('a line over maxBytes and a line of 75k keys (150k nodes) are refused with JSON-RPC errors; the server keeps serving', async () => {
    const child = spawn(process.execPath, SERVE_STDIO, {
      stdio: ['pipe', 'pipe', 'inherit'],
    })
    const answers: { id: unknown; result?: unknown; error?: { code: number; message: string } }[] = []
    let buffered = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8')
      for (let at = buffered.indexOf('\n'); at !== -1; at = buffered.indexOf('\n')) {
        answers.push(JSON.parse(buffered.slice(0, at)))
        buffered = buffered.slice(at + 1)
      }
    })
    const send = (message: object | string) =>
      child.stdin!.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`)
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    })
    await until(() => answers.length === 1, 20_000)
    send({ jsonrpc: '2.0', method: 'notifications/initialized' })
    // 5 MiB in one line, past the default 4 MiB: dropped up to its newline, answered with id null.
    send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'add', arguments: { a: 'x'.repeat(5 * 1024 * 1024), b: 1 } },
    })
    const args: Record<string, number> = {}
    for (let i = 0; i < 75_000; i++) args[`k${i}`] = 1
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'add', arguments: args } })
    send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'add', arguments: { a: 40, b: 2 } } })
    await until(() => answers.length === 4, 20_000)
    expect(answers[1]).toMatchObject({ id: null, error: { code: -32600 } })
    expect(answers[1]!.error!.message).toMatch(/more than 4194304 bytes \(maxBytes\)/)
    expect(answers[2]).toMatchObject({ id: 3, error: { code: -32600 } })
    expect(answers[2]!.error!.message).toMatch(/maxNodes/)
    expect(answers[3]).toMatchObject({ id: 4, result: { structuredContent: { value: 42 } } })
    child.stdin!.end()
    await until(() => !isAlive(child.pid!), 20_000)
  }, 60_000)
})

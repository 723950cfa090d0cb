import type { ToolProgressUpdate } from '@dsh/tools-core'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { type JSONRPCMessage, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js'
import { describe, expect, it } from 'vitest'
import { call, createApp, loadMcp, textOf } from './fixtures/app'

/**
 * A server written against the raw JSON-RPC transport that answers `tools/call` with its progress
 * reports and the result in one synchronous turn — what a stdio client sees when the server's
 * last progress and its answer arrive in one read. `steps` reports per call.
 */
function burstServer(steps: number) {
  const [client, server] = InMemoryTransport.createLinkedPair()
  const send = (message: JSONRPCMessage) => void server.send(message)
  server.onmessage = (message) => {
    if (!('method' in message) || !('id' in message)) return
    const { id } = message
    if (message.method === 'initialize') {
      send({
        jsonrpc: '2.0',
        id,
        result: {
          protocolVersion: LATEST_PROTOCOL_VERSION,
          capabilities: { tools: {} },
          serverInfo: { name: 'burst', version: '1' },
        },
      })
    } else if (message.method === 'tools/list') {
      send({ jsonrpc: '2.0', id, result: { tools: [{ name: 'work', inputSchema: { type: 'object' } }] } })
    } else if (message.method === 'tools/call') {
      const token = (message.params?._meta as { progressToken?: string | number } | undefined)?.progressToken
      for (let step = 1; step <= steps && token !== undefined; step++) {
        send({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: token, progress: step, total: steps, message: `step ${step}` },
        })
      }
      send({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'done' }] } })
    }
  }
  return { create: async () => client }
}

describe('client plugin: progress sent in the same turn as the answer', () => {
  it('every report, the last included, reaches tools/progress before the call settles', async () => {
    const { ctx } = await createApp()
    await loadMcp(ctx, { name: 'burst', transport: burstServer(3) })
    const updates: ToolProgressUpdate[] = []
    ctx.on('tools/progress', (_execution, update) => {
      updates.push(update)
    })
    for (let round = 0; round < 3; round++) {
      updates.length = 0
      const result = await call(ctx, 'burst__work')
      expect(textOf(result)).toBe('done')
      expect(updates.map((update) => update.progress)).toEqual([1, 2, 3])
    }
  })
})

/**
 * A server's progress notifications and its result often arrive in one read (stdio reads whole
 * chunks): the notifications must still be forwarded, the last one included. The transport
 * here delivers them exactly that way — synchronously, back to back — to the real SDK client
 * inside the plugin.
 */
import type { ToolProgressUpdate } from '@dsh/tools-core'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { describe, expect, it } from 'vitest'
import { call, createApp, loadMcp } from './fixtures/app'

/** A scripted server: `burst` answers with `steps` progress notifications and its result in one tick. */
class BurstTransport implements Transport {
  onmessage?: Transport['onmessage']
  onclose?: () => void
  onerror?: (error: Error) => void
  async start(): Promise<void> {}
  async close(): Promise<void> {
    this.onclose?.()
  }
  async send(message: JSONRPCMessage): Promise<void> {
    if (!('method' in message) || !('id' in message)) return
    const reply = (result: Record<string, unknown>) => ({ jsonrpc: '2.0' as const, id: message.id, result })
    const params = (message.params ?? {}) as Record<string, unknown>
    let burst: JSONRPCMessage[]
    if (message.method === 'initialize') {
      burst = [
        reply({
          protocolVersion: params.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: 'burst', version: '1.0.0' },
        }),
      ]
    } else if (message.method === 'tools/list') {
      burst = [
        reply({
          tools: [
            { name: 'burst', inputSchema: { type: 'object', properties: { steps: { type: 'integer' } } } },
          ],
        }),
      ]
    } else {
      const { steps } = params.arguments as { steps: number }
      const progressToken = (params._meta as { progressToken?: string | number } | undefined)?.progressToken
      burst = []
      if (progressToken !== undefined) {
        for (let i = 1; i <= steps; i++) {
          burst.push({
            jsonrpc: '2.0',
            method: 'notifications/progress',
            params: { progressToken, progress: i, total: steps, message: `step ${i}` },
          })
        }
      }
      burst.push(reply({ content: [{ type: 'text', text: 'done' }] }))
    }
    // Later than the send, as a real read is; then all in one synchronous run.
    setImmediate(() => {
      for (const out of burst) this.onmessage?.(out)
    })
  }
}

describe('progress sent right before the result', () => {
  it.each([1, 2, 5])(
    'all %i progress notifications of a burst reach tools/progress, in order',
    async (steps) => {
      const { ctx } = await createApp()
      const fiber = await loadMcp(ctx, { name: 'b', transport: { create: async () => new BurstTransport() } })
      const updates: ToolProgressUpdate[] = []
      ctx.on('tools/progress', (_exec, update) => {
        updates.push(update)
      })
      const result = await call(ctx, 'b__burst', { steps })
      expect(result.isError).toBe(false)
      expect(updates).toEqual(
        Array.from({ length: steps }, (_, i) => ({
          progress: i + 1,
          total: steps,
          message: `step ${i + 1}`,
        })),
      )
      await fiber.dispose()
    },
  )
})

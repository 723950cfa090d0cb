/**
 * The client plugin's `limits` on what a server sends (in memory, the official SDK server):
 * a notification past them is dropped with a warning while its call goes on; an answer past
 * them fails its call naming the limit; the session keeps serving.
 */
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { describe, expect, it } from 'vitest'
import { call, createApp, loadMcp, textOf } from './fixtures/app'
import { createHostileServer } from './fixtures/hostile-server'

function inMemoryHostile() {
  return {
    async create() {
      const [client, server] = InMemoryTransport.createLinkedPair()
      await createHostileServer().server.connect(server)
      return client
    },
  }
}

describe('client plugin: limits on server messages', () => {
  it('a notification past the limits is dropped with a warning; its call still answers', async () => {
    const { ctx, warnings } = await createApp()
    // timeoutMs makes the plugin ask for progress (a token), so the server reports it.
    await loadMcp(ctx, {
      name: 'h',
      transport: inMemoryHostile(),
      timeoutMs: 30_000,
      limits: { maxNodes: 500 },
    })
    expect(textOf(await call(ctx, 'h__shout', { n: 1000 }))).toBe('shouted')
    expect(warnings.map((warning) => warning.message)).toContainEqual(
      expect.stringMatching(
        /\(notifications\/progress\) exceeds the client's limits: more than 500 JSON nodes/,
      ),
    )
  })

  it('configured limits apply to answers: past maxDepth or maxNodes the call is TOOL_FAILED', async () => {
    const { ctx } = await createApp()
    await loadMcp(ctx, { name: 'h', transport: inMemoryHostile(), limits: { maxNodes: 500 } })
    const result = await call(ctx, 'h__big', { n: 1000 })
    expect(result.isError && result.error.info?.code).toBe('TOOL_FAILED')
    expect(result.isError && result.error.message).toMatch(/more than 500 JSON nodes \(maxNodes\)/)
    expect(textOf(await call(ctx, 'h__big', { n: 10 }))).toBe('big')
  })
})

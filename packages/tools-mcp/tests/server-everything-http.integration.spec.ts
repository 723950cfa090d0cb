/**
 * `@modelcontextprotocol/server-everything` (pinned) as a real Streamable HTTP server: one child
 * process serving `/mcp` on a free local port. The client plugin lists and calls its tools over
 * HTTP, gets progress on the request's SSE stream, survives a server restart (the old session
 * is unknown to the new process), and ends its session with DELETE on dispose.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import type { Context, Fiber } from '@deepseek-ai/cordis'
import type { ToolExecutionResult } from '@dsh/tools-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { call, createApp, isAlive, loadMcp, until } from './fixtures/app'
import { serverBin } from './fixtures/third-party'

const BIN = serverBin('@modelcontextprotocol/server-everything', 'mcp-server-everything')

let port: number
let server: { child: ChildProcess; log: string[] } | undefined
let ctx: Context
let fiber: Fiber

const ok = (result: ToolExecutionResult) => {
  if (result.isError) throw new Error(`${result.error.info?.code}: ${result.error.message}`)
  return result
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

/** Start the server on `port`; resolves once it listens. Its stdout lines are kept (its request log). */
async function startServer(): Promise<{ child: ChildProcess; log: string[] }> {
  const child = spawn(process.execPath, [BIN, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const log: string[] = []
  child.stdout!.on('data', (chunk: Buffer) => log.push(...chunk.toString('utf8').split('\n')))
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server-everything exited with ${code}`)))
    child.stderr!.on('data', (chunk: Buffer) => {
      if (chunk.toString('utf8').includes('listening on port')) resolve()
    })
  })
  return { child, log }
}

async function stopServer(): Promise<void> {
  const child = server?.child
  if (child?.pid === undefined || !isAlive(child.pid)) return
  child.kill('SIGKILL')
  await until(() => !isAlive(child.pid!))
}

beforeAll(async () => {
  port = await freePort()
  server = await startServer()
  ;({ ctx } = await createApp())
  fiber = await loadMcp(ctx, {
    name: 'web',
    transport: { url: `http://127.0.0.1:${port}/mcp` },
    timeoutMs: 20_000,
  })
})

afterAll(async () => {
  await ctx?.fiber.dispose()
  await stopServer()
})

describe('@modelcontextprotocol/server-everything over Streamable HTTP', () => {
  it('lists its tools and answers text and structured calls', async () => {
    expect(ctx.tools.get('web__echo')).toBeDefined()
    expect(ctx.tools.get('web__get-structured-content')?.output.schema).toMatchObject({ type: 'object' })
    expect(ok(await call(ctx, 'web__echo', { message: 'über http' })).value).toEqual([
      { type: 'text', text: 'Echo: über http' },
    ])
    const weather = ok(await call(ctx, 'web__get-structured-content', { location: 'Chicago' }))
    expect(weather.value).toMatchObject({ temperature: expect.any(Number) })
  })

  it('progress arrives on the request stream as tools/progress, in order', async () => {
    const updates: [number | undefined, number | undefined][] = []
    const off = ctx.on('tools/progress', (exec, update) => {
      if (exec.callId === 'http-long') updates.push([update.progress, update.total])
    })
    try {
      ok(
        await call(
          ctx,
          'web__trigger-long-running-operation',
          { duration: 0.3, steps: 3 },
          { callId: 'http-long' },
        ),
      )
      expect(updates).toEqual([
        [1, 3],
        [2, 3],
        [3, 3],
      ])
    } finally {
      off()
    }
  })

  it('after a server restart the old session is gone: at most one failure naming the server, then a new session', async () => {
    await stopServer()
    server = await startServer()
    // Unless the SDK already gave up on the old session's event stream (then the session ended
    // and this call starts the new one), the first call meets the unknown-session refusal.
    const first = await call(ctx, 'web__echo', { message: 'one' })
    if (first.isError) {
      expect(first.error.info?.code).toBe('TOOL_FAILED')
      expect(first.error.message).toMatch(
        /^MCP server "web" crashed or disconnected during tools\/call "echo"/,
      )
    }
    expect(ok(await call(ctx, 'web__echo', { message: 'two' })).value).toEqual([
      { type: 'text', text: 'Echo: two' },
    ])
    expect(server.log.filter((line) => line.startsWith('Session initialized'))).toHaveLength(1)
  })

  it('dispose ends the session with DELETE', async () => {
    const log = server!.log
    expect(log.filter((line) => line.startsWith('Received session termination request'))).toEqual([])
    await fiber.dispose()
    // Its log line travels on the child's stdout, after the answer to the DELETE.
    await until(() => log.some((line) => line.startsWith('Received session termination request')))
    expect(log.filter((line) => line.startsWith('Received session termination request'))).toHaveLength(1)
    expect(ctx.tools.get('web__echo')).toBeUndefined()
  })
})

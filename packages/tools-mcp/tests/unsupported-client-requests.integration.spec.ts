/**
 * A server that sends the client requests it never declared (sampling, elicitation, roots) —
 * a real stdio child built with the official SDK, spawned once. The client declares no such
 * capability, so each request is refused at once (JSON-RPC "method not found"): the call ends
 * promptly, as TOOL_FAILED when the server lets the refusal fail it, or with the server's
 * answer when it carries on; the session stays usable and dispose leaves no process.
 */
import { fileURLToPath } from 'node:url'
import type { Context, Fiber } from '@deepseek-ai/cordis'
import { scriptCommand } from '@dsh/tools-codemode/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { call, createApp, isAlive, loadMcp, until } from './fixtures/app'
import { childPids } from './fixtures/third-party'

/** The server bundled into one module: a sixth of the start cost of `--import tsx`. */
const SERVER = await scriptCommand(fileURLToPath(new URL('./fixtures/requesting-server.ts', import.meta.url)))
const KINDS = ['sampling', 'elicitation', 'roots']

let ctx: Context
let fiber: Fiber
let pids: number[]

beforeAll(async () => {
  ;({ ctx } = await createApp())
  // No timeoutMs: the SDK default (60 s) is longer than the test timeout, so a hang fails the test.
  fiber = await loadMcp(ctx, {
    name: 'asker',
    transport: { command: process.execPath, args: SERVER },
  })
  pids = childPids(SERVER.at(-1)!)
})

afterAll(async () => {
  await ctx?.fiber.dispose()
  for (const pid of pids ?? []) if (isAlive(pid)) process.kill(pid, 'SIGKILL')
})

describe('server-initiated requests the client does not support', () => {
  it('a server that lets the refusal fail its tool: TOOL_FAILED naming the server and the refused method', async () => {
    for (const kind of KINDS) {
      const result = await call(ctx, `asker__strict_${kind}`)
      expect(result.isError && result.error.info?.code, kind).toBe('TOOL_FAILED')
      expect(result.isError && result.error.message).toMatch(/MCP tool "strict_\w+" on server "asker" failed/)
      expect(result.isError && result.error.message).toMatch(/-32601|[Mm]ethod not found/)
    }
  })

  it('a server that tolerates the refusal: the call completes with its answer', async () => {
    for (const kind of KINDS) {
      const result = await call(ctx, `asker__lenient_${kind}`)
      expect(result.isError ? result.error.message : result.value).toEqual([
        {
          type: 'text',
          text: expect.stringMatching(new RegExp(`^client refused ${kind}: .*(-32601|[Mm]ethod not found)`)),
        },
      ])
    }
  })

  it('the session survives the refusals (same child process), and dispose ends it', async () => {
    expect(pids).toHaveLength(1)
    const [pid] = pids
    expect(isAlive(pid!)).toBe(true)
    await fiber.dispose()
    await until(() => !isAlive(pid!))
    expect(childPids(SERVER.at(-1)!)).toEqual([])
  })
})

import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { call, createApp, isAlive, loadMcp, stdioFixture, stdioServer, textOf, until } from './fixtures/app'

/** Whether `pid` is running on a CPU (state R): the wedged server spins. */
function isBusy(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] === 'R'
  } catch {
    return false
  }
}

async function pidOf(ctx: Parameters<typeof call>[0]): Promise<number> {
  const result = await call(ctx, 'fx__pid')
  if (result.isError) throw new Error(result.error.message)
  return Number(textOf(result))
}

describe('client plugin over a real stdio child process', () => {
  it('lists, calls, and leaves no child process after dispose', async () => {
    const { ctx } = await createApp()
    const fiber = await loadMcp(ctx, { name: 'fx', transport: await stdioFixture({ pageSize: 4 }) })
    expect(ctx.tools.get('fx__wipe')).toBeDefined()
    expect(textOf(await call(ctx, 'fx__echo', { text: 'over stdio' }))).toBe('over stdio')
    const add = await call(ctx, 'fx__add', { a: 1, b: 41 })
    expect(add.isError === false && add.value).toEqual({ sum: 42 })
    const pid = await pidOf(ctx)
    expect(pid).not.toBe(process.pid)
    expect(isAlive(pid)).toBe(true)
    await fiber.dispose()
    await until(() => !isAlive(pid))
    expect(ctx.tools.get('fx__echo')).toBeUndefined()
  })

  it('a crash is TOOL_FAILED naming the server with its stderr tail; the next use starts a new process', async () => {
    const { ctx } = await createApp()
    const fiber = await loadMcp(ctx, { name: 'fx', transport: await stdioFixture() })
    const first = await pidOf(ctx)
    const crashed = await call(ctx, 'fx__crash')
    expect(crashed.isError && crashed.error.info?.code).toBe('TOOL_FAILED')
    expect(crashed.isError && crashed.error.message).toContain('MCP server "fx"')
    expect(crashed.isError && crashed.error.message).toContain('fatal: the fixture server hit a wall')
    await until(() => !isAlive(first))
    const second = await pidOf(ctx)
    expect(second).not.toBe(first)
    await fiber.dispose()
    await until(() => !isAlive(second))
  })

  it('a hung server past timeoutMs is killed (no orphan) and replaced on next use', async () => {
    const { ctx } = await createApp()
    const fiber = await loadMcp(ctx, { name: 'fx', transport: await stdioFixture(), timeoutMs: 1500 })
    const first = await pidOf(ctx)
    const hung = await call(ctx, 'fx__hang')
    expect(hung.isError && hung.error.message).toMatch(/did not answer tools\/call "hang" within 1500ms/)
    expect(hung.isError && hung.error.message).toContain(`fixture server ${first} up`)
    await until(() => !isAlive(first))
    const second = await pidOf(ctx)
    expect(second).not.toBe(first)
    await fiber.dispose()
    await until(() => !isAlive(second))
  })

  // A launcher (`sh -c`, `npx`) is the child the SDK kills; a wedged server behind it never reads
  // the EOF of its closed stdin and used to run on, reparented to PID 1.
  it('a wedged server behind a launcher is killed with it', async () => {
    const { ctx } = await createApp()
    const launched = {
      command: '/bin/sh',
      // `; exit` keeps sh from exec'ing node: sh stays the child, the server its grandchild.
      args: [
        '-c',
        `"${process.execPath}" ${(await stdioServer()).map((arg) => `"${arg}"`).join(' ')}; exit $?`,
      ],
      env: { FIXTURE_OPTIONS: '{}', PATH: process.env.PATH ?? '/usr/bin:/bin' },
    }
    const fiber = await loadMcp(ctx, { name: 'fx', transport: launched })
    const server = await pidOf(ctx)
    const wedged = call(ctx, 'fx__wedge')
    // Past its deadline the same kill ends the session (\`#end\` with \`force\`).
    await until(() => isBusy(server))
    const disposing = performance.now()
    await fiber.dispose()
    // Not a speed bound: without the forced kill of the tree the SDK's close waits on the pipes
    // the wedged server holds (2 s), then 2 s more after a SIGTERM to the dead launcher.
    expect(performance.now() - disposing).toBeLessThan(2_000)
    expect((await wedged).isError).toBe(true)
    await until(() => !isAlive(server))
  })

  it('dispose during a call ends the call and the child process', async () => {
    const { ctx } = await createApp()
    const fiber = await loadMcp(ctx, { name: 'fx', transport: await stdioFixture() })
    const pid = await pidOf(ctx)
    const pending = call(ctx, 'fx__hang')
    // The call is on the wire once the server has it: it answers the call sent after it.
    expect(JSON.parse(textOf(await call(ctx, 'fx__stats'))).byTool.hang).toBe(1)
    await fiber.dispose()
    const result = await pending
    expect(result.isError).toBe(true)
    await until(() => !isAlive(pid))
  })

  it('a server that cannot start fails loading with a clear error and leaves nothing behind', async () => {
    const { ctx } = await createApp()
    const bad = {
      command: process.execPath,
      args: ['-e', 'process.stderr.write("no config file\\n"); process.exit(2)'],
    }
    await expect(loadMcp(ctx, { name: 'broken', transport: bad })).rejects.toThrow(
      /MCP server "broken"[\s\S]*no config file/,
    )
    expect(ctx.tools.schemas()).toEqual([])
  })
})

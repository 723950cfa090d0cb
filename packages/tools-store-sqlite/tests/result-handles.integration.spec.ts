// read_result handles across processes (SPEC §13.4): a child process cuts a result with its text
// kept in a SQLite file and exits; this process reads the text back through `read_result` on the
// same file — same agent only.
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { Context } from '@deepseek-ai/cordis'
import { scriptCommand } from '@dsh/tools-codemode/testing'
import ToolRuntime, { READ_RESULT_TOOL_NAME, type ToolExecutionResult } from '@dsh/tools-core'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import SqliteToolStore from '../src/index'
import { tempDirectory } from './fixtures/sqlite-files'

/** The child bundled with the sources it imports (`scriptCommand`): a fraction of the cost of `--import tsx`. */
const CHILD = await scriptCommand(fileURLToPath(new URL('./fixtures/cut-result-child.ts', import.meta.url)))
const files = tempDirectory('handles')
const contexts: Context[] = []
afterEach(async () => {
  for (const ctx of contexts.splice(0)) await ctx.fiber.dispose()
})
afterAll(() => files.remove())

/** Run the child to completion; its handle and the full text it cut. */
async function cutInChild(path: string, agent: string): Promise<{ handle: string; full: string }> {
  const { stdout } = await promisify(execFile)(process.execPath, [...CHILD, path, agent], { timeout: 60_000 })
  return JSON.parse(stdout.trim().split('\n').at(-1)!)
}

async function reader(path: string) {
  const ctx = new Context()
  contexts.push(ctx)
  await ctx.plugin(ToolRuntime, { resultBudget: { maxContentBytes: 1024 } })
  await ctx.plugin(SqliteToolStore, { path })
  return ctx
}

async function readAll(ctx: Context, handle: string, agent: string): Promise<string | ToolExecutionResult> {
  let text = ''
  let offset: number | null = 0
  while (offset !== null) {
    const result = await ctx.tools.execute({
      callId: `read-${offset}`,
      name: READ_RESULT_TOOL_NAME,
      arguments: { handle, offset },
      agent,
      signal: new AbortController().signal,
    })
    if (result.isError) return result
    const page = result.value as { text: string; nextOffset: number | null }
    text += page.text
    offset = page.nextOffset
  }
  return text
}

describe('read_result handles on a SQLite file, across processes', () => {
  it('a handle cut by a process that has exited reads in full from another process, for its agent only', async () => {
    const path = files.file()
    const { handle, full } = await cutInChild(path, 'agent-a')
    expect(handle).toMatch(/^res_/)
    expect(full.length).toBeGreaterThan(10_000)
    const ctx = await reader(path)
    expect(await readAll(ctx, handle, 'agent-a')).toBe(full)
    const foreign = await readAll(ctx, handle, 'agent-b')
    expect(typeof foreign !== 'string' && foreign.isError && foreign.error.message).toBe(
      `result handle \`${handle}\` not found`,
    )
  })
})

/**
 * Each engine's worker measures the values a program sends out before it posts them: a result or
 * call arguments past the run's `nodes` / `depth` never reach the host (the host checks again:
 * `hostile-worker.integration.spec.ts`).
 */
import { DoneStatus } from '@dsh/tools-codemode/runtime-kit'
import { describe, expect, it } from 'vitest'
import { spawnWorkerHandle } from '../src/pool/worker-handle'
import type { CodeEngine } from '../src/types'

/** Run `body` on a fresh worker with `nodes: 10, depth: 3`; every message it posts, until done. */
async function runInWorker(engine: CodeEngine, body: string): Promise<Array<Record<string, unknown>>> {
  const handle = spawnWorkerHandle({ engine, maxOldGenerationSizeMb: 64, computeMs: 10_000 })
  expect(await handle.booted).toEqual({ ok: true })
  const messages: Array<Record<string, unknown>> = []
  const done = new Promise<void>((resolve) => {
    handle.worker.on('message', (message: Record<string, unknown>) => {
      messages.push(message)
      if (message.k === 'done') resolve()
    })
  })
  handle.worker.postMessage({
    k: 'run',
    code: `(async () => {\n${body}\n})`,
    names: '["take"]',
    limit: 1_000_000,
    nodes: 10,
    depth: 3,
  })
  await done
  await handle.worker.terminate()
  await handle.exited
  return messages
}

describe.each<CodeEngine>(['quickjs', 'node-vm'])('the %s worker', (engine) => {
  it('turns a result past nodes or depth into output-limit before posting it', async () => {
    const wide = await runInWorker(engine, 'return Array.from({ length: 10 }, (_, i) => i)')
    expect(wide.at(-1)).toEqual({
      k: 'done',
      s: DoneStatus.OUTPUT_LIMIT,
      v: expect.stringContaining('the result holds more than 10 JSON values (`maxValueNodes`)'),
    })
    const deep = await runInWorker(engine, 'return [[[[1]]]]')
    expect(deep.at(-1)).toEqual({
      k: 'done',
      s: DoneStatus.OUTPUT_LIMIT,
      v: 'the result nests more than 3 levels deep (`maxValueDepth`)',
    })
    expect((await runInWorker(engine, 'return [[[1, 2]]]')).at(-1)).toEqual({
      k: 'done',
      s: DoneStatus.OK,
      v: '[[[1,2]]]',
    })
  })

  it('refuses call arguments past nodes or depth inside the program; no call is posted', async () => {
    const messages = await runInWorker(
      engine,
      `const out = []
      for (const args of [{ v: Array.from({ length: 10 }, (_, i) => i) }, { v: [[[1]]] }]) {
        try { await tools.take(args) } catch (e) { out.push(e.name + ': ' + e.message) }
      }
      return out`,
    )
    expect(messages.filter((message) => message.k === 'calls' || message.k === 'calls-json')).toEqual([])
    const done = messages.at(-1) as { s: number; v: string }
    expect(done.s).toBe(DoneStatus.OK)
    const [wide, deep] = JSON.parse(done.v) as string[]
    expect(wide).toMatch(
      /^ToolCallError: arguments for take holds more than 10 JSON values \(`maxValueNodes`\)/,
    )
    expect(deep).toBe('ToolCallError: arguments for take nests more than 3 levels deep (`maxValueDepth`)')
  })
})

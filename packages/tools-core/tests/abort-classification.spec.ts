import { describe, expect, it } from 'vitest'
import type { ToolExecutionResult } from '../src/index'
import { call, createRuntime, echoTool } from './fixtures/runtime'

type Body = 'honours' | 'honours-abort-error' | 'ignores' | 'fails-first'
type Entry = 'native' | 'batch'

/** Resolves once the body started, so the caller aborts a running body. */
function started() {
  let resolve!: () => void
  const promise = new Promise<void>((r) => {
    resolve = r
  })
  return { promise, resolve }
}

async function run(body: Body, entry: Entry, abort: boolean): Promise<ToolExecutionResult> {
  const ctx = await createRuntime()
  const start = started()
  let release!: () => void
  const released = new Promise<void>((r) => {
    release = r
  })
  ctx.tools.register(
    echoTool('t', {
      isConcurrencySafe: () => true,
      execute: (_args, exec) =>
        new Promise<string>((resolve, reject) => {
          start.resolve()
          if (body === 'fails-first') {
            reject(new Error('disk full'))
            return
          }
          if (body !== 'ignores') {
            exec.signal.addEventListener('abort', () => {
              if (body === 'honours') reject(exec.signal.reason)
              else reject(new DOMException('This operation was aborted', 'AbortError'))
            })
          }
          void released.then(() => resolve('done'))
        }),
    }),
  )
  const controller = new AbortController()
  const pending =
    entry === 'native'
      ? ctx.tools.execute(call('t', {}, { signal: controller.signal }))
      : ctx.tools
          .executeBatch([call('t'), call('t')], { signal: controller.signal })
          .then((results) => results[0]!)
  await start.promise
  if (body === 'fails-first') await new Promise((r) => setTimeout(r, 0))
  if (abort) controller.abort()
  release()
  return pending
}

const code = (result: ToolExecutionResult) => (result.isError ? result.error.info?.code : 'OK')

describe('abort classification (caller abort × body behaviour, native and executeBatch)', () => {
  for (const entry of ['native', 'batch'] as const) {
    it(`${entry}: a body that rejects with the caller's abort reason is ABORTED`, async () => {
      const result = await run('honours', entry, true)
      expect(result.isError && result.error).toEqual({
        message: 'tool call aborted',
        info: { name: 'ToolAbortedError', code: 'ABORTED' },
      })
    })

    it(`${entry}: a body that rejects with an AbortError after the caller aborted is ABORTED`, async () => {
      expect(code(await run('honours-abort-error', entry, true))).toBe('ABORTED')
    })

    it(`${entry}: a body that ignores the abort and succeeds is ABORTED`, async () => {
      expect(code(await run('ignores', entry, true))).toBe('ABORTED')
    })

    it(`${entry}: a genuine failure before the abort stays TOOL_FAILED`, async () => {
      const result = await run('fails-first', entry, true)
      expect(result.isError && result.error).toEqual({
        message: 'disk full',
        info: { name: 'ToolFailedError', code: 'TOOL_FAILED' },
      })
    })

    it(`${entry}: without an abort every body behaviour keeps its own outcome`, async () => {
      expect(code(await run('honours', entry, false))).toBe('OK')
      expect(code(await run('ignores', entry, false))).toBe('OK')
      expect(code(await run('fails-first', entry, false))).toBe('TOOL_FAILED')
    })
  }

  it('an AbortError the body throws while the caller is live stays TOOL_FAILED', async () => {
    const ctx = await createRuntime()
    ctx.tools.register(
      echoTool('t', {
        execute: async () => {
          throw new DOMException('inner fetch aborted', 'AbortError')
        },
      }),
    )
    const result = await ctx.tools.execute(call('t'))
    expect(code(result)).toBe('TOOL_FAILED')
  })
})

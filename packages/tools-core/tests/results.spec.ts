import { describe, expect, it } from 'vitest'
import {
  defineTool,
  type ToolDefinition,
  type ToolExecutionResult,
  type ToolExecutionToken,
} from '../src/index'
import { call, createRuntime, deferred, echoTool } from './fixtures/runtime'

/** Every object reachable from `value` is frozen. */
function expectDeepFrozen(value: unknown, path = '$'): void {
  if (typeof value !== 'object' || value === null) return
  expect(Object.isFrozen(value), `${path} is frozen`).toBe(true)
  for (const [key, member] of Object.entries(value)) expectDeepFrozen(member, `${path}.${key}`)
}

function objectTool(execute: () => unknown, extra: Record<string, unknown> = {}) {
  return defineTool({
    name: 'obj',
    description: 'Returns an object.',
    parameters: {},
    output: {
      schema: {
        type: 'object',
        properties: { n: { type: 'number', required: true } },
        additionalProperties: false,
      },
      render: (_args, value) => [{ type: 'text', text: `n=${value.n}` }],
      presentationMeta: (_args, value) => ({ doubled: value.n * 2 }),
    },
    execute: execute as () => { n: number },
    ...extra,
  })
}

describe('results', () => {
  it('snapshots, validates, freezes and renders the canonical value; meta for top-level calls only', async () => {
    const ctx = await createRuntime()
    const raw = { n: 2 }
    ctx.tools.register(objectTool(() => raw))
    const result = await ctx.tools.execute(call('obj'))
    expect(result).toEqual({
      isError: false,
      value: { n: 2 },
      content: [{ type: 'text', text: 'n=2' }],
      meta: { doubled: 4 },
    })
    expect(result.isError === false && result.value).not.toBe(raw)
    expect(Object.isFrozen(result)).toBe(true)
    expect(Object.isFrozen(result.isError === false && result.value)).toBe(true)
    expect(Object.isFrozen(result.content[0])).toBe(true)
    const nested = await ctx.tools.execute(call('obj', {}, { parent: Symbol('outer') as ToolExecutionToken }))
    expect('meta' in nested).toBe(false)
  })

  it('results are deep-frozen on every path (success, meta, contexts, failures, replacements)', async () => {
    const ctx = await createRuntime()
    ctx.tools.register(
      objectTool(() => ({ n: 1 }), {
        name: 'obj',
        execute: (_args: unknown, exec: { deferContext(c: unknown): void }) => {
          exec.deferContext({ source: 'tool', text: 'deferred', meta: { nested: { list: [1] } } })
          return { n: 1 }
        },
      }),
    )
    ctx.tools.register(
      echoTool('throws', {
        execute: () => {
          throw new Error('x')
        },
      }),
    )
    let decision: unknown = { kind: 'accept' }
    ctx.on('tools/post-execute', async () => decision as never)
    const results: ToolExecutionResult[] = []
    ctx.on('tools/result', (_exec, result) => {
      results.push(result)
    })
    await ctx.tools.execute(call('obj'))
    decision = { kind: 'accept', content: [{ type: 'text', text: 'swapped' }] }
    await ctx.tools.execute(call('obj'))
    decision = {
      kind: 'accept',
      value: { n: 5 },
      additionalContexts: [{ source: 'p', text: 't', meta: [{}] }],
    }
    await ctx.tools.execute(call('obj'))
    decision = {
      kind: 'block',
      feedback: 'no',
      additionalContexts: [{ source: 'p', text: 't', meta: { a: {} } }],
    }
    await ctx.tools.execute(call('obj'))
    decision = { kind: 'accept' }
    await ctx.tools.execute(call('throws'))
    await ctx.tools.execute(call('missing'))
    await ctx.tools.execute(call('obj', { n: 1n }))
    expect(results).toHaveLength(7)
    expect(results[0]).toMatchObject({ meta: { doubled: 2 }, additionalContexts: [{ text: 'deferred' }] })
    for (const result of results) expectDeepFrozen(result)
  })

  it('presentationMeta returning undefined means no meta, not a failure', async () => {
    const ctx = await createRuntime()
    ctx.tools.register(
      defineTool({
        name: 'plain',
        description: '',
        parameters: {},
        output: {
          schema: { type: 'string' },
          render: (_args, value) => [{ type: 'text', text: value }],
          presentationMeta: () => undefined,
        },
        execute: () => 'v',
      }),
    )
    const result = await ctx.tools.execute(call('plain'))
    expect(result).toEqual({ isError: false, value: 'v', content: [{ type: 'text', text: 'v' }] })
    expect('meta' in result).toBe(false)
  })

  it('a value that violates output.schema or is lossy is INVALID_OUTPUT', async () => {
    const ctx = await createRuntime()
    let value: unknown = { n: 'two' }
    ctx.tools.register(objectTool(() => value))
    const wrong = await ctx.tools.execute(call('obj'))
    expect(wrong.isError && wrong.error.info).toEqual({ name: 'InvalidOutputError', code: 'INVALID_OUTPUT' })
    expect(wrong.isError && wrong.error.message).toContain('$.n: expected number, got string')
    value = { n: Number.NaN }
    const lossy = await ctx.tools.execute(call('obj'))
    expect(lossy.isError && lossy.error.info?.code).toBe('INVALID_OUTPUT')
  })

  it('a wrapper-authored success is normalized under the active declaration', async () => {
    const ctx = await createRuntime()
    ctx.tools.register(objectTool(() => ({ n: 1 })))
    let authored: unknown = { isError: false, value: { n: 7 }, content: [{ type: 'text', text: 'ignored' }] }
    ctx.on('tools/execute', async () => authored as ToolExecutionResult)
    const result = await ctx.tools.execute(call('obj'))
    expect(result).toEqual({
      isError: false,
      value: { n: 7 },
      content: [{ type: 'text', text: 'n=7' }],
      meta: { doubled: 14 },
    })
    authored = { isError: false, value: { n: 'bad' }, content: [] }
    const invalid = await ctx.tools.execute(call('obj'))
    expect(invalid.isError && invalid.error.info?.code).toBe('INVALID_OUTPUT')
  })

  it('a cached result of another call is renormalized, not trusted', async () => {
    const ctx = await createRuntime()
    ctx.tools.register(echoTool('text'))
    ctx.tools.register(objectTool(() => ({ n: 1 })))
    let cache: ToolExecutionResult | undefined
    ctx.on('tools/execute', async (exec, next) => {
      if (exec.name === 'text') {
        cache = await next()
        return cache
      }
      return cache ?? next()
    })
    await ctx.tools.execute(call('text', { text: 'hello' }))
    const result = await ctx.tools.execute(call('obj'))
    // 'hello' is not a valid `obj` output: the foreign result is rejected under obj's declaration
    expect(result.isError && result.error.info?.code).toBe('INVALID_OUTPUT')
  })

  describe('post-execute', () => {
    it('accept may replace content, keeping value and meta', async () => {
      const ctx = await createRuntime()
      ctx.tools.register(objectTool(() => ({ n: 3 })))
      ctx.on('tools/post-execute', async () => ({
        kind: 'accept',
        content: [{ type: 'text', text: 'redacted' }],
      }))
      const result = await ctx.tools.execute(call('obj'))
      expect(result).toEqual({
        isError: false,
        value: { n: 3 },
        content: [{ type: 'text', text: 'redacted' }],
        meta: { doubled: 6 },
      })
    })

    it('replacing the value revalidates and re-renders; an invalid replacement is INVALID_OUTPUT', async () => {
      const ctx = await createRuntime()
      ctx.tools.register(objectTool(() => ({ n: 3 })))
      let replacement: unknown = { n: 10 }
      ctx.on('tools/post-execute', async () => ({ kind: 'accept', value: replacement as never }))
      const result = await ctx.tools.execute(call('obj'))
      expect(result).toEqual({
        isError: false,
        value: { n: 10 },
        content: [{ type: 'text', text: 'n=10' }],
        meta: { doubled: 20 },
      })
      replacement = { n: 'x' }
      const invalid = await ctx.tools.execute(call('obj'))
      expect(invalid.isError && invalid.error.info).toEqual({
        name: 'InvalidOutputError',
        code: 'INVALID_OUTPUT',
      })
    })

    it('replacing both content and value is POST_POLICY_FAILED', async () => {
      const ctx = await createRuntime()
      ctx.tools.register(objectTool(() => ({ n: 3 })))
      ctx.on('tools/post-execute', async () => ({ kind: 'accept', value: { n: 1 }, content: [] }))
      const result = await ctx.tools.execute(call('obj'))
      expect(result.isError && result.error.info?.code).toBe('POST_POLICY_FAILED')
    })

    it('a throwing listener is POST_POLICY_FAILED, naming the phase', async () => {
      const ctx = await createRuntime()
      ctx.tools.register(echoTool())
      ctx.on('tools/post-execute', () => {
        throw new Error('post broke')
      })
      const result = await ctx.tools.execute(call('echo'))
      expect(result.isError && result.error).toEqual({
        message: 'tools/post-execute listener failed: post broke',
        info: { name: 'PostPolicyError', code: 'POST_POLICY_FAILED' },
      })
    })

    it('accept keeps tool-deferred contexts before decision contexts', async () => {
      const ctx = await createRuntime()
      ctx.tools.register(
        echoTool('defers', {
          execute: (_args, exec) => {
            exec.deferContext({ source: 'tool', text: 'from the body' })
            return 'ok'
          },
        }),
      )
      ctx.on('tools/post-execute', async (_exec, result) => {
        expect(result.additionalContexts).toEqual([{ source: 'tool', text: 'from the body' }])
        return {
          kind: 'accept',
          additionalContexts: [{ source: 'policy', text: 'from the decision', meta: { a: 1 } }],
        }
      })
      const result = await ctx.tools.execute(call('defers'))
      expect(result.additionalContexts).toEqual([
        { source: 'tool', text: 'from the body' },
        { source: 'policy', text: 'from the decision', meta: { a: 1 } },
      ])
    })

    it('block drops tool-deferred contexts and yields a valueless failure with the feedback', async () => {
      const ctx = await createRuntime()
      ctx.tools.register(
        echoTool('defers', {
          execute: (_args, exec) => {
            exec.deferContext({ source: 'tool', text: 'dropped' })
            return 'secret'
          },
        }),
      )
      ctx.on('tools/post-execute', async () => ({
        kind: 'block',
        feedback: 'output withheld',
        additionalContexts: [{ source: 'policy', text: 'kept' }],
      }))
      const result = await ctx.tools.execute(call('defers'))
      expect(result).toEqual({
        isError: true,
        error: { message: 'output withheld', info: { name: 'DeniedError', code: 'DENIED' } },
        content: [{ type: 'text', text: 'Error: output withheld' }],
        additionalContexts: [{ source: 'policy', text: 'kept' }],
      })
      expect('value' in result).toBe(false)
    })

    it('deferred contexts survive a body that throws after deferring', async () => {
      const ctx = await createRuntime()
      ctx.tools.register(
        echoTool('defers', {
          execute: (_args, exec) => {
            exec.deferContext({ source: 'tool', text: 'kept' })
            throw new Error('then failed')
          },
        }),
      )
      const result = await ctx.tools.execute(call('defers'))
      expect(result.isError).toBe(true)
      expect(result.additionalContexts).toEqual([{ source: 'tool', text: 'kept' }])
    })
  })

  describe('finalizeContent', () => {
    const outcomes = {
      success: { setup: () => {}, body: () => 'ok' },
      denial: {
        setup: (ctx: Awaited<ReturnType<typeof createRuntime>>) => ctx.tools.guard(() => 'no'),
        body: () => 'ok',
      },
      'tool throw': {
        setup: () => {},
        body: () => {
          throw new Error('x')
        },
      },
      'invalid args': { setup: () => {}, body: () => 'ok', args: { text: 1 } },
    } as const
    for (const [label, outcome] of Object.entries(outcomes)) {
      it(`runs exactly once on ${label} and may replace only content`, async () => {
        const ctx = await createRuntime()
        const calls: boolean[] = []
        ctx.tools.register(
          echoTool('fin', {
            execute: outcome.body as () => string,
            finalizeContent: (_exec, result) => {
              calls.push(result.isError)
              return [{ type: 'text', text: `final:${result.isError ? 'error' : 'ok'}` }]
            },
          }),
        )
        outcome.setup(ctx)
        const seen: ToolExecutionResult[] = []
        ctx.on('tools/result', (_exec, result) => {
          seen.push(result)
        })
        const result = await ctx.tools.execute(call('fin', 'args' in outcome ? outcome.args : {}))
        expect(calls).toEqual([label !== 'success'])
        expect(result.content).toEqual([
          { type: 'text', text: `final:${label === 'success' ? 'ok' : 'error'}` },
        ])
        expect(seen).toEqual([result])
        expect(seen[0]).toBe(result)
      })
    }

    it('runs exactly once on every other failure path, and sees the normalized failure', async () => {
      type Ctx = Awaited<ReturnType<typeof createRuntime>>
      const aborted = () => {
        const controller = new AbortController()
        controller.abort()
        return controller.signal
      }
      const late = new AbortController()
      const paths: {
        code: string
        setup?: (ctx: Ctx) => void
        body?: () => unknown
        args?: unknown
        signal?: AbortSignal
      }[] = [
        { code: 'ABORTED_BEFORE_DISPATCH', signal: aborted() },
        { code: 'INVALID_ARGS', args: { text: 1n } },
        { code: 'DENIED', setup: (ctx) => ctx.on('tools/pre-execute', async () => ({ kind: 'ask' })) },
        {
          code: 'TOOL_FAILED',
          setup: (ctx) =>
            ctx.on('tools/execute', async () => {
              throw new Error('wrapper broke')
            }),
        },
        {
          code: 'ABORTED',
          signal: late.signal,
          body: async () => {
            late.abort()
            throw new DOMException('aborted', 'AbortError')
          },
        },
        { code: 'INVALID_OUTPUT', body: () => 42 },
      ]
      for (const path of paths) {
        const ctx = await createRuntime()
        const seen: (string | undefined)[] = []
        ctx.tools.register(
          echoTool('fin', {
            execute: (path.body ?? (() => 'ok')) as () => string,
            finalizeContent: (_exec, result) => {
              seen.push(result.isError ? result.error.info?.code : 'ok')
              return [{ type: 'text', text: 'final' }]
            },
          }),
        )
        path.setup?.(ctx)
        const input = call('fin', path.args ?? {}, path.signal ? { signal: path.signal } : {})
        const result = await ctx.tools.execute(input)
        expect(seen).toEqual([path.code])
        expect(result.isError && result.error.info?.code).toBe(path.code)
        expect(result.content).toEqual([{ type: 'text', text: 'final' }])
      }
    })

    it('is snapshotted at call start: replacing it mid-call does not change which one runs', async () => {
      const ctx = await createRuntime()
      const gate = deferred()
      const ran: string[] = []
      const definition = {
        ...(echoTool('fin', {
          execute: async () => {
            await gate.promise
            return 'ok'
          },
        }) as ToolDefinition),
        finalizeContent: () => {
          ran.push('original')
          return undefined
        },
      }
      ctx.tools.register(definition)
      const pending = ctx.tools.execute(call('fin'))
      await new Promise((resolve) => setImmediate(resolve))
      definition.finalizeContent = () => {
        ran.push('replacement')
        return undefined
      }
      gate.resolve()
      await pending
      expect(ran).toEqual(['original'])
    })

    it('a throwing finalizer becomes a failure and does not run again', async () => {
      const ctx = await createRuntime()
      let runs = 0
      ctx.tools.register(
        echoTool('fin', {
          finalizeContent: () => {
            runs++
            throw new Error('finalizer broke')
          },
        }),
      )
      const result = await ctx.tools.execute(call('fin'))
      expect(runs).toBe(1)
      expect(result.isError && result.error.message).toBe('finalizeContent failed: finalizer broke')
    })
  })

  describe('tools/result', () => {
    it('is observe-only: it sees the frozen final result and cannot change it', async () => {
      const ctx = await createRuntime()
      ctx.tools.register(echoTool())
      const seen: ToolExecutionResult[] = []
      ctx.on('tools/result', (_exec, result) => {
        seen.push(result)
        expect(Object.isFrozen(result)).toBe(true)
        expect(() => {
          ;(result as { isError: boolean }).isError = true
        }).toThrow()
      })
      ctx.on('tools/result', () => {
        throw new Error('observer broke')
      })
      const result = await ctx.tools.execute(call('echo'))
      expect(result.isError).toBe(false)
      expect(seen).toEqual([result])
    })
  })
})

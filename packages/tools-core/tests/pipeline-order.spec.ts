import type { Context } from '@deepseek-ai/cordis'
import { describe, expect, it } from 'vitest'
import { DeniedError, type ToolExecution, type ToolExecutionToken, ToolsError } from '../src/index'
import { call, createRuntime, echoTool } from './fixtures/runtime'

/** Install listeners on every phase that record their order into `log`. */
function trace(ctx: Context, log: string[]) {
  ctx.on('tools/pre-execute', (_e, next) => {
    log.push('pre-execute')
    return next()
  })
  ctx.tools.guard(() => {
    log.push('guard')
    return undefined
  })
  ctx.on('tools/execute', async (_e, next) => {
    log.push('execute:before')
    const result = await next()
    log.push('execute:after')
    return result
  })
  ctx.on('tools/post-execute', (_e, _r, next) => {
    log.push('post-execute')
    return next()
  })
  ctx.on('tools/result', () => {
    log.push('result')
  })
}

function tracedTool(log: string[], name = 'echo') {
  return echoTool(name, {
    execute: () => {
      log.push('body')
      return 'ok'
    },
    finalizeContent: () => {
      log.push('finalize')
      return undefined
    },
  })
}

describe('pipeline order', () => {
  it('runs the phases in SPEC order', async () => {
    const ctx = await createRuntime()
    const log: string[] = []
    ctx.tools.register(tracedTool(log))
    trace(ctx, log)
    const result = await ctx.tools.execute(call('echo'))
    expect(result.isError).toBe(false)
    expect(log).toEqual([
      'pre-execute',
      'guard',
      'execute:before',
      'body',
      'execute:after',
      'post-execute',
      'finalize',
      'result',
    ])
  })

  it('builds a frozen execution with a fresh symbol token and frozen lossless arguments', async () => {
    const ctx = await createRuntime()
    const seen: ToolExecution[] = []
    ctx.tools.register(echoTool())
    ctx.on('tools/pre-execute', (exec, next) => {
      seen.push(exec)
      return next()
    })
    const args = { text: 'a', nested: { list: [1, 2] } }
    await ctx.tools.execute(call('echo', args))
    await ctx.tools.execute(call('echo', args))
    const [first, second] = seen
    expect(typeof first!.token).toBe('symbol')
    expect(first!.token).not.toBe(second!.token)
    expect(Object.isFrozen(first)).toBe(true)
    expect(Object.isFrozen((first!.arguments as { nested: object }).nested)).toBe(true)
    expect(first!.arguments).toEqual(args)
    expect(first!.arguments).not.toBe(args)
  })

  it('step 1: lossy arguments are an INVALID_ARGS result that runs no policy', async () => {
    const ctx = await createRuntime()
    const log: string[] = []
    ctx.tools.register(tracedTool(log))
    trace(ctx, log)
    const result = await ctx.tools.execute(call('echo', { text: 'a', when: new Date() }))
    expect(result.isError && result.error.info).toEqual({ name: 'ToolArgsError', code: 'INVALID_ARGS' })
    expect(log).toEqual(['finalize', 'result'])
  })

  it('step 1: BigInt, cycles, undefined in arrays, NaN and accessors are INVALID_ARGS results, never throws', async () => {
    const ctx = await createRuntime()
    const log: string[] = []
    ctx.tools.register(tracedTool(log))
    trace(ctx, log)
    const cycle: Record<string, unknown> = {}
    cycle.self = cycle
    const lossy: [unknown, string][] = [
      [{ n: 1n }, '$.n: a BigInt is not JSON'],
      [cycle, '$.self: cycle detected'],
      [{ list: [1, undefined] }, '$.list[1]: undefined is not JSON'],
      [{ n: Number.NaN }, '$.n: NaN is not JSON'],
      [
        {
          get text() {
            throw new Error('getter ran')
          },
        },
        '$.text: accessor properties are not JSON',
      ],
    ]
    for (const [args, message] of lossy) {
      const result = await ctx.tools.execute(call('echo', args))
      expect(result.isError && result.error).toEqual({
        message: `invalid arguments: ${message}`,
        info: { name: 'ToolArgsError', code: 'INVALID_ARGS' },
      })
    }
    expect(log).toEqual(lossy.flatMap(() => ['finalize', 'result']))
  })

  it('step 2: an unknown tool is UNKNOWN_TOOL before any policy', async () => {
    const ctx = await createRuntime()
    const log: string[] = []
    trace(ctx, log)
    const result = await ctx.tools.execute(call('nope'))
    expect(result).toEqual({
      isError: true,
      error: { message: 'unknown tool: nope', info: { name: 'UnknownToolError', code: 'UNKNOWN_TOOL' } },
      content: [{ type: 'text', text: 'Error: unknown tool: nope' }],
    })
    expect(log).toEqual(['result'])
  })

  it('step 3: a pre-aborted call publishes exactly one result and runs no policy or body', async () => {
    const ctx = await createRuntime()
    const log: string[] = []
    ctx.tools.register(tracedTool(log))
    trace(ctx, log)
    const controller = new AbortController()
    controller.abort()
    const result = await ctx.tools.execute(call('echo', {}, { signal: controller.signal }))
    expect(result.isError && result.error.info?.code).toBe('ABORTED_BEFORE_DISPATCH')
    expect(log).toEqual(['finalize', 'result'])
  })

  it('step 4: invalid arguments reach neither policy nor body', async () => {
    const ctx = await createRuntime()
    const log: string[] = []
    ctx.tools.register(tracedTool(log))
    trace(ctx, log)
    const result = await ctx.tools.execute(call('echo', { text: 42 }))
    expect(result.isError && result.error.message).toBe(
      'invalid arguments: $.text: expected string, got number',
    )
    expect(result.isError && result.error.info?.code).toBe('INVALID_ARGS')
    expect(log).toEqual(['finalize', 'result'])
  })

  describe('step 5: tools/pre-execute', () => {
    it('deny stops the call with the reason', async () => {
      const ctx = await createRuntime()
      const log: string[] = []
      ctx.tools.register(tracedTool(log))
      ctx.on('tools/pre-execute', async () => ({ kind: 'deny', reason: 'not today' }))
      const result = await ctx.tools.execute(call('echo'))
      expect(result.isError && result.error).toEqual({
        message: 'not today',
        info: { name: 'DeniedError', code: 'DENIED' },
      })
      expect(log).toEqual(['finalize'])
    })

    it('ask without an approval service degrades to deny', async () => {
      const ctx = await createRuntime()
      ctx.tools.register(echoTool())
      ctx.on('tools/pre-execute', async () => ({ kind: 'ask', reason: 'risky' }))
      const result = await ctx.tools.execute(call('echo'))
      expect(result.isError && result.error.info?.code).toBe('DENIED')
      expect(result.isError && result.error.message).toMatch(/approval/)
    })

    it('ask goes to the approval seam (ctx.get("approval"))', async () => {
      const ctx = await createRuntime()
      ctx.tools.register(echoTool())
      const asked: (string | undefined)[] = []
      let approve = true
      ctx.provide('approval', {
        async request(exec: ToolExecution, reason: string | undefined) {
          asked.push(`${exec.name}:${reason}`)
          return approve ? { approved: true } : { approved: false, reason: 'user said no' }
        },
      })
      ctx.on('tools/pre-execute', async () => ({ kind: 'ask', reason: 'risky' }))
      expect((await ctx.tools.execute(call('echo'))).isError).toBe(false)
      approve = false
      const denied = await ctx.tools.execute(call('echo'))
      expect(denied.isError && denied.error).toEqual({
        message: 'user said no',
        info: { name: 'DeniedError', code: 'DENIED' },
      })
      expect(asked).toEqual(['echo:risky', 'echo:risky'])
    })

    it('the approval seam is duck-typed: no request() means deny; a throwing request denies', async () => {
      const ctx = await createRuntime()
      let bodies = 0
      ctx.tools.register(
        echoTool('echo', {
          execute: () => {
            bodies++
            return 'ok'
          },
        }),
      )
      ctx.on('tools/pre-execute', async () => ({ kind: 'ask' }))
      const dispose = ctx.provide('approval', { approve: () => true })
      const noRequest = await ctx.tools.execute(call('echo'))
      expect(noRequest.isError && noRequest.error).toEqual({
        message: 'approval required but no approval service is available',
        info: { name: 'DeniedError', code: 'DENIED' },
      })
      dispose()
      ctx.provide('approval', {
        async request() {
          throw new Error('ui crashed')
        },
      })
      const threw = await ctx.tools.execute(call('echo'))
      expect(threw.isError && threw.error).toEqual({
        message: 'approval request failed: ui crashed',
        info: { name: 'DeniedError', code: 'DENIED' },
      })
      expect(bodies).toBe(0)
    })

    it('a throwing listener becomes a failure naming the phase', async () => {
      const ctx = await createRuntime()
      const log: string[] = []
      ctx.tools.register(tracedTool(log))
      ctx.on('tools/pre-execute', () => {
        throw new Error('boom')
      })
      const result = await ctx.tools.execute(call('echo'))
      expect(result.isError && result.error).toEqual({
        message: 'tools/pre-execute listener failed: boom',
        info: { name: 'ToolFailedError', code: 'TOOL_FAILED' },
      })
      expect(log).toEqual(['finalize'])
    })

    it('a listener throwing a ToolsError keeps its code and name', async () => {
      const ctx = await createRuntime()
      ctx.tools.register(echoTool())
      ctx.on('tools/pre-execute', () => {
        throw new DeniedError('policy says no')
      })
      const result = await ctx.tools.execute(call('echo'))
      expect(result.isError && result.error).toEqual({
        message: 'policy says no',
        info: { name: 'DeniedError', code: 'DENIED' },
      })
    })

    it('an invalid decision is a failure, never an allow', async () => {
      const ctx = await createRuntime()
      ctx.tools.register(echoTool())
      ctx.on('tools/pre-execute', async () => ({ kind: 'maybe' }) as never)
      const result = await ctx.tools.execute(call('echo'))
      expect(result.isError && result.error.message).toBe(
        'tools/pre-execute listener returned an invalid decision',
      )
    })
  })

  describe('step 6: guards', () => {
    it('run in registration order; the first reason denies', async () => {
      const ctx = await createRuntime()
      const log: string[] = []
      ctx.tools.register(echoTool())
      ctx.tools.guard(() => {
        log.push('g1')
        return undefined
      })
      ctx.tools.guard(() => {
        log.push('g2')
        return 'second says no'
      })
      ctx.tools.guard(() => {
        log.push('g3')
        return 'third says no'
      })
      const result = await ctx.tools.execute(call('echo'))
      expect(result.isError && result.error.message).toBe('second says no')
      expect(log).toEqual(['g1', 'g2'])
    })

    it('a guard denial survives every later listener', async () => {
      const ctx = await createRuntime()
      const log: string[] = []
      ctx.tools.register(tracedTool(log))
      ctx.tools.guard(() => 'guarded')
      // later listeners of every kind try to force permission or success
      ctx.on('tools/pre-execute', async () => ({ kind: 'allow' }), true)
      ctx.on('tools/pre-execute', async () => ({ kind: 'allow' }))
      ctx.on('tools/execute', async () => ({ isError: false, value: 'forced', content: [] }))
      ctx.on('tools/post-execute', async () => ({ kind: 'accept', value: 'forced' }))
      const result = await ctx.tools.execute(call('echo'))
      expect(result.isError && result.error).toEqual({
        message: 'guarded',
        info: { name: 'DeniedError', code: 'DENIED' },
      })
      expect(log).toEqual(['finalize'])
    })

    it('a throwing guard denies, naming the phase', async () => {
      const ctx = await createRuntime()
      ctx.tools.register(echoTool())
      ctx.tools.guard(() => {
        throw new Error('broken guard')
      })
      const result = await ctx.tools.execute(call('echo'))
      expect(result.isError && result.error).toEqual({
        message: 'guard failed: broken guard',
        info: { name: 'DeniedError', code: 'DENIED' },
      })
    })

    it('a disposed guard no longer runs', async () => {
      const ctx = await createRuntime()
      ctx.tools.register(echoTool())
      const undo = ctx.tools.guard(() => 'no')
      undo()
      expect((await ctx.tools.execute(call('echo'))).isError).toBe(false)
    })
  })

  describe('step 7: tools/execute', () => {
    it('a body throw is TOOL_FAILED; a thrown ToolsError keeps its code and name', async () => {
      const ctx = await createRuntime()
      ctx.tools.register(
        echoTool('plain', {
          execute: () => {
            throw new Error('disk full')
          },
        }),
      )
      ctx.tools.register(
        echoTool('coded', {
          execute: async () => {
            throw new ToolsError('CODE_RUN_FAILED', 'code run failed (exception): x')
          },
        }),
      )
      const plain = await ctx.tools.execute(call('plain'))
      expect(plain).toEqual({
        isError: true,
        error: { message: 'disk full', info: { name: 'ToolFailedError', code: 'TOOL_FAILED' } },
        content: [{ type: 'text', text: 'Error: disk full' }],
      })
      const coded = await ctx.tools.execute(call('coded'))
      expect(coded.isError && coded.error.info).toEqual({ name: 'ToolsError', code: 'CODE_RUN_FAILED' })
    })

    it('a throwing wrapper becomes a failure naming the phase', async () => {
      const ctx = await createRuntime()
      ctx.tools.register(echoTool())
      ctx.on('tools/execute', async () => {
        throw new Error('wrapper broke')
      })
      const result = await ctx.tools.execute(call('echo'))
      expect(result.isError && result.error).toEqual({
        message: 'tools/execute listener failed: wrapper broke',
        info: { name: 'ToolFailedError', code: 'TOOL_FAILED' },
      })
    })

    it('wrappers can replace only the signal', async () => {
      const ctx = await createRuntime()
      ctx.tools.register(echoTool('echo', { execute: (args) => args.text ?? 'none' }))
      const errors: string[] = []
      ctx.on('tools/execute', (exec, next) => {
        for (const key of ['arguments', 'name', 'token', 'callId'] as const) {
          try {
            ;(exec as unknown as Record<string, unknown>)[key] = 'changed'
          } catch {
            errors.push(key)
          }
        }
        exec.signal = new AbortController().signal
        return next()
      })
      const result = await ctx.tools.execute(call('echo', { text: 'original' }))
      expect(result.isError === false && result.value).toBe('original')
      expect(errors).toEqual(['arguments', 'name', 'token', 'callId'])
    })

    it('a wrapper may not replace the signal with a non-signal or delete it; the failure names the phase', async () => {
      const ctx = await createRuntime()
      let bodies = 0
      ctx.tools.register(
        echoTool('echo', {
          execute: () => {
            bodies++
            return 'ok'
          },
        }),
      )
      const thrown: string[] = []
      ctx.on('tools/execute', (exec, next) => {
        try {
          delete (exec as { signal?: AbortSignal }).signal
        } catch (error) {
          thrown.push((error as Error).name)
        }
        exec.signal = undefined as never
        return next()
      })
      const result = await ctx.tools.execute(call('echo'))
      expect(thrown).toEqual(['TypeError'])
      expect(result.isError && result.error).toEqual({
        message:
          'tools/execute listener failed: `exec.signal` was replaced by something that is not an AbortSignal',
        info: { name: 'ToolFailedError', code: 'TOOL_FAILED' },
      })
      expect(bodies).toBe(0)
    })

    it('a wrapper that retries re-runs the body of an idempotent tool', async () => {
      const ctx = await createRuntime()
      let runs = 0
      ctx.tools.register({
        ...echoTool('flaky', {
          execute: () => {
            runs++
            if (runs === 1) throw new Error('first attempt fails')
            return 'second attempt'
          },
        }),
        annotations: { idempotent: true },
      })
      ctx.on('tools/execute', async (_exec, next) => {
        const first = await next()
        return first.isError ? next() : first
      })
      const result = await ctx.tools.execute(call('flaky'))
      expect(result.isError === false && result.value).toBe('second attempt')
      expect(runs).toBe(2)
    })
  })

  it('the code-only gate answers UNKNOWN_TOOL with the route-back message before any policy', async () => {
    const ctx = await createRuntime({ mode: 'code' })
    const log: string[] = []
    ctx.tools.register(tracedTool(log, 'grep'))
    trace(ctx, log)
    const result = await ctx.tools.execute(call('grep'))
    expect(result.isError && result.error).toEqual({
      message: 'only `run_code` is callable directly — call `grep` from inside a `run_code` program instead',
      info: { name: 'UnknownToolError', code: 'UNKNOWN_TOOL' },
    })
    expect(log).toEqual(['result'])
    // a Code Mode sub-call (with `parent`) bypasses the gate
    const nested = await ctx.tools.execute(
      call('grep', {}, { parent: Symbol('outer') as ToolExecutionToken }),
    )
    expect(nested.isError).toBe(false)
  })
})

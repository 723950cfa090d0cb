import { describe, expect, it } from 'vitest'
import * as core from '../src/index'
import { failureFromThrow } from '../src/pipeline/results'
import { call, createRuntime, echoTool } from './fixtures/runtime'

type ErrorClass = new (...args: never[]) => core.ToolsError

/** Constructor arguments for the exported error classes whose constructor is not `(message)`. */
const SAMPLE_ARGS: Record<string, unknown[]> = {
  ToolsError: ['SOME_CODE', 'm'],
  ToolArgsError: [[{ path: '$.a', message: 'bad' }]],
  ToolTimeoutError: [25],
  LosslessJsonError: ['$', 'detail'],
  SchemaDefinitionError: ['$', 'detail'],
  UnsupportedJsonSchemaError: ['$', 'detail'],
  JsonBudgetError: ['$', 'maxNodes', 10],
}

/** Every error class the barrel exports, built once: `[class, instance]`. */
function exportedErrors(): [ErrorClass, core.ToolsError][] {
  const out: [ErrorClass, core.ToolsError][] = []
  for (const value of Object.values(core)) {
    if (typeof value !== 'function' || !(value.prototype instanceof core.ToolsError)) continue
    const Class = value as unknown as ErrorClass
    const args = SAMPLE_ARGS[Class.name] ?? ['a message']
    out.push([Class, new Class(...(args as never[]))])
  }
  return out
}

describe('one error model', () => {
  it('every code of ToolErrorCode maps to exactly one exported error class (CODE_RUN_FAILED: tools-codemode)', () => {
    const errors = exportedErrors()
    for (const code of Object.values(core.ToolErrorCode)) {
      const classes = errors.filter(([, error]) => error.code === code).map(([Class]) => Class.name)
      if (code === core.ToolErrorCode.CODE_RUN_FAILED) expect(classes).toEqual([])
      else expect(classes, code).toHaveLength(1)
    }
  })

  it('failureOf keeps the class name and the code of every exported error class in sync', () => {
    for (const [Class, error] of exportedErrors()) {
      const result = core.failureOf(error)
      expect(result.error.info).toEqual({ name: Class.name, code: error.code })
      expect(result.error.message).toBe(error.message)
      expect(result.content).toEqual([{ type: 'text', text: `Error: ${error.message}` }])
      expect(Object.isFrozen(result) && Object.isFrozen(result.error.info)).toBe(true)
    }
  })

  it('a throw that is not a ToolsError becomes the phase fallback class, named and coded by it', () => {
    const result = failureFromThrow(new RangeError('boom'), core.PostPolicyError, 'post failed: ')
    expect(result.error).toEqual({
      message: 'post failed: boom',
      info: { name: 'PostPolicyError', code: 'POST_POLICY_FAILED' },
    })
    const kept = failureFromThrow(new core.DeniedError('no'), core.ToolFailedError, 'ignored: ')
    expect(kept.error).toEqual({ message: 'no', info: { name: 'DeniedError', code: 'DENIED' } })
  })

  it('every failure the pipeline produces names the one class of its code', async () => {
    const ctx = await createRuntime()
    const classOf = new Map(exportedErrors().map(([Class, error]) => [error.code, Class.name]))
    ctx.tools.register(echoTool('echo'))
    ctx.tools.register(echoTool('throws', { execute: () => Promise.reject(new Error('body')) }))
    ctx.tools.register(echoTool('lies', { execute: () => 42 as unknown as string }))
    const late = new AbortController()
    ctx.tools.register(
      echoTool('slow', {
        execute: () => {
          late.abort() // the caller gives up once the body has started; the body still succeeds
          return new Promise((resolve) => setTimeout(() => resolve('late'), 1))
        },
      }),
    )
    ctx.tools.register(echoTool('denied'))
    ctx.tools.register(echoTool('blocked'))
    ctx.tools.register(echoTool('timed'))
    ctx.on('tools/pre-execute', (exec, next) =>
      exec.name === 'denied' ? Promise.resolve({ kind: 'deny', reason: 'no' }) : next(),
    )
    ctx.on('tools/post-execute', (exec, _result, next) => {
      if (exec.name === 'blocked') throw new Error('post listener broke')
      return next()
    })
    ctx.on('tools/execute', (exec, next) => {
      if (exec.name === 'timed') throw new core.ToolTimeoutError(1)
      return next()
    })
    const aborted = new AbortController()
    aborted.abort()
    const results = await Promise.all([
      ctx.tools.execute(call('missing')),
      ctx.tools.execute(call('echo', { text: 1 })),
      ctx.tools.execute(call('echo', { text: 1n })),
      ctx.tools.execute(call('denied')),
      ctx.tools.execute(call('echo', {}, { signal: aborted.signal })),
      ctx.tools.execute(call('slow', {}, { signal: late.signal })),
      ctx.tools.execute(call('throws')),
      ctx.tools.execute(call('lies')),
      ctx.tools.execute(call('timed')),
      ctx.tools.execute(call('blocked')),
    ])
    const codes = results.map((result) => (result.isError ? result.error.info?.code : 'ok'))
    expect(codes).toEqual([
      'UNKNOWN_TOOL',
      'INVALID_ARGS',
      'INVALID_ARGS',
      'DENIED',
      'ABORTED_BEFORE_DISPATCH',
      'ABORTED',
      'TOOL_FAILED',
      'INVALID_OUTPUT',
      'TOOL_TIMEOUT',
      'POST_POLICY_FAILED',
    ])
    for (const result of results) {
      if (!result.isError) continue
      expect(result.error.info!.name).toBe(classOf.get(result.error.info!.code))
    }
  })

  it('lossy arguments read like any other argument violation: path, then detail', async () => {
    const ctx = await createRuntime()
    ctx.tools.register(echoTool('echo'))
    const result = await ctx.tools.execute(call('echo', { text: Number.NaN }))
    expect(result.isError && result.error.message).toMatch(/^invalid arguments: \$\.text: /)
  })
})

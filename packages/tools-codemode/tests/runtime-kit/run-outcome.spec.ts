import { isToolsError } from '@dsh/tools-core'
import { describe, expect, it } from 'vitest'
import {
  CodeRuntimeConfigError,
  callFailureOf,
  completionOutcome,
  DoneStatus,
  describeWorkerError,
  encodeCallValue,
  isCodeRuntimeError,
  OutputMeter,
  utf8LineCost,
  utf8LineWithBreakCost,
} from '../../src/runtime-kit/index'

describe('OutputMeter', () => {
  it('charges lines by the runtime’s cost and refuses the first line past the byte cap', () => {
    const meter = new OutputMeter({ maxOutputBytes: 5 }, utf8LineCost)
    expect(meter.admitLine('')).toBeUndefined() // an empty line still costs one byte
    expect(meter.admitLine('é')).toBeUndefined() // two UTF-8 bytes
    expect(meter.admitLine('ab')).toBeUndefined()
    expect(meter.admitLine('')).toBe('output exceeded maxOutputBytes (5 bytes)')
    expect({ bytes: meter.bytes, lines: meter.lines }).toEqual({ bytes: 5, lines: 3 })
  })

  it('caps the number of lines when asked, and prices a line break when the runtime does', () => {
    const meter = new OutputMeter({ maxOutputBytes: 100, maxLogLines: 2 }, utf8LineWithBreakCost)
    expect(meter.admitLine('')).toBeUndefined()
    expect(meter.admitLine('abc')).toBeUndefined()
    expect(meter.admitLine('')).toBe('output exceeded maxLogLines (2 lines)')
    expect(meter.bytes).toBe(5)
  })
})

const LIMITS = { maxValueNodes: 10, maxValueDepth: 3 }

describe('completionOutcome', () => {
  const logs = ['line']

  it('refuses a result over maxValueNodes or maxValueDepth as output-limit, before parsing it', () => {
    const meter = () => new OutputMeter({ maxOutputBytes: 1_000 }, utf8LineCost)
    const wide = JSON.stringify(Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, i])))
    expect(completionOutcome(DoneStatus.OK, wide, logs, meter(), LIMITS)).toEqual({
      ok: false,
      kind: 'output-limit',
      message: expect.stringContaining('the result holds more than 10 JSON values (`maxValueNodes`)'),
      logs,
    })
    expect(completionOutcome(DoneStatus.OK, '[[[[1]]]]', logs, meter(), LIMITS)).toMatchObject({
      kind: 'output-limit',
      message: 'the result nests more than 3 levels deep (`maxValueDepth`)',
    })
    expect(completionOutcome(DoneStatus.OK, '[[[1, 2, "]]]]]"]]]', logs, meter(), LIMITS)).toMatchObject({
      ok: true,
      result: [[[1, 2, ']]]]]']]],
    })
  })

  it('parses an OK payload, or reports it as invalid-output when it is not JSON', () => {
    const meter = () => new OutputMeter({ maxOutputBytes: 100 }, utf8LineCost)
    expect(completionOutcome(DoneStatus.OK, '{"a":[1]}', logs, meter(), LIMITS)).toEqual({
      ok: true,
      logs,
      result: { a: [1] },
    })
    expect(completionOutcome(DoneStatus.OK, undefined, logs, meter(), LIMITS)).toEqual({ ok: true, logs })
    expect(completionOutcome(DoneStatus.OK, '{', logs, meter(), LIMITS)).toEqual({
      ok: false,
      kind: 'invalid-output',
      message: 'the result is not valid JSON text',
      logs,
    })
  })

  it('maps every failed status to its kind', () => {
    const meter = new OutputMeter({ maxOutputBytes: 100 }, utf8LineCost)
    expect(completionOutcome(DoneStatus.EXCEPTION, 'boom', logs, meter, LIMITS)).toMatchObject({
      kind: 'exception',
    })
    expect(completionOutcome(DoneStatus.INVALID_OUTPUT, 'x', logs, meter, LIMITS)).toMatchObject({
      kind: 'invalid-output',
    })
    expect(completionOutcome(DoneStatus.OUTPUT_LIMIT, 'x', logs, meter, LIMITS)).toMatchObject({
      kind: 'output-limit',
    })
  })

  it('charges the payload to the bytes the logs left', () => {
    const meter = new OutputMeter({ maxOutputBytes: 6 }, utf8LineCost)
    meter.admitLine('abcd')
    expect(completionOutcome(DoneStatus.OK, '"x"', logs, meter, LIMITS)).toEqual({
      ok: false,
      kind: 'output-limit',
      message: 'result exceeded maxOutputBytes (6 bytes)',
      logs,
    })
    expect(completionOutcome(DoneStatus.EXCEPTION, 'boom', logs, meter, LIMITS)).toMatchObject({
      kind: 'output-limit',
      message: 'failure message exceeded maxOutputBytes (6 bytes)',
    })
  })
})

describe('call replies and worker failures', () => {
  it('forwards only a rejection’s toolName and message, and survives a hostile reason', () => {
    expect(callFailureOf({ toolName: 'real', message: 'no', secret: 1 }, 'asked')).toEqual({
      toolName: 'real',
      message: 'no',
    })
    expect(callFailureOf('plain', 'asked')).toEqual({ toolName: 'asked', message: 'plain' })
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('trap')
        },
      },
    )
    expect(callFailureOf(hostile, 'asked')).toEqual({ toolName: 'asked', message: 'tool call failed' })
  })

  it('encodes a value as JSON text, or refuses one that cannot be encoded', () => {
    expect(encodeCallValue({ a: 1 })).toBe('{"a":1}')
    expect(encodeCallValue(undefined)).toBe('null')
    const cycle: Record<string, unknown> = {}
    cycle.self = cycle
    expect(encodeCallValue(cycle)).toBeUndefined()
    expect(encodeCallValue(1n)).toBeUndefined()
    expect(encodeCallValue(() => 1)).toBeUndefined()
  })

  it('describes a heap exhaustion with the cap and anything else by its message', () => {
    expect(describeWorkerError({ code: 'ERR_WORKER_OUT_OF_MEMORY' }, { maxOldGenerationSizeMb: 64 })).toBe(
      'the worker ran out of memory (maxOldGenerationSizeMb: 64)',
    )
    expect(describeWorkerError(new Error('bad'), { maxOldGenerationSizeMb: 64 })).toBe(
      'the worker failed: bad',
    )
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('trap')
        },
      },
    )
    expect(describeWorkerError(hostile, { maxOldGenerationSizeMb: 64 })).toMatch(/^the worker failed: /)
  })
})

describe('runtime errors', () => {
  it('are ToolsErrors branded with the runtime that threw them', () => {
    const error = new CodeRuntimeConfigError('@dsh/example', 'example runtime', ['a is bad', 'b is bad'])
    expect(error.message).toBe('invalid example runtime config: a is bad; b is bad')
    expect(error.code).toBe('INVALID_RUNTIME_CONFIG')
    expect(error.name).toBe('CodeRuntimeConfigError')
    expect(error.issues).toEqual(['a is bad', 'b is bad'])
    expect(isToolsError(error)).toBe(true)
    expect(isCodeRuntimeError(error)).toBe(true)
    expect(isCodeRuntimeError(error, '@dsh/example')).toBe(true)
    expect(isCodeRuntimeError(error, '@dsh/other')).toBe(false)
    expect(isCodeRuntimeError(new Error('x'))).toBe(false)
    expect(isCodeRuntimeError({ runtime: '@dsh/example', code: 'INVALID_RUNTIME_CONFIG' })).toBe(false)
  })
})

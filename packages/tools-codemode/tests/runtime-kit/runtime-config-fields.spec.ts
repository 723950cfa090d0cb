import { describe, expect, it } from 'vitest'
import {
  configSchema,
  DEFAULT_JSON_SHAPE_LIMITS,
  MAX_TIMER_MS,
  resolveConfig,
  runtimeConfigFields,
} from '../../src/runtime-kit/index'

describe('runtimeConfigFields', () => {
  it('declares the fields every runtime shares, with their bounds and defaults', () => {
    const fields = runtimeConfigFields()
    expect(Object.keys(fields)).toEqual([
      'computeMs',
      'maxWallMs',
      'maxOutputBytes',
      'maxLogLines',
      'maxValueNodes',
      'maxValueDepth',
      'maxOldGenerationSizeMb',
      'maxConcurrentRuns',
      'warmWorkers',
    ])
    expect(fields.computeMs).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: MAX_TIMER_MS,
      default: 30_000,
    })
    expect(fields.maxWallMs).toMatchObject({ minimum: 1, maximum: MAX_TIMER_MS, default: 300_000 })
    expect(fields.maxOutputBytes).toMatchObject({
      maximum: Number.MAX_SAFE_INTEGER,
      default: 64 * 1024 * 1024,
    })
    expect(fields.maxLogLines.default).toBe(10_000)
    expect(fields.maxValueNodes.default).toBe(DEFAULT_JSON_SHAPE_LIMITS.maxNodes)
    expect(fields.maxValueDepth.default).toBe(DEFAULT_JSON_SHAPE_LIMITS.maxDepth)
  })

  it("appends a runtime's note to the shared meaning, and takes its own default or bounds", () => {
    const shared = runtimeConfigFields()
    const tuned = runtimeConfigFields({
      computeMs: 'The engine stops at once',
      warmWorkers: { default: 1, note: 'Each is an interpreter' },
      maxValueDepth: { maximum: 1000 },
    })
    expect(tuned.computeMs.description).toBe(`${shared.computeMs.description}. The engine stops at once`)
    expect(tuned.warmWorkers).toEqual({
      ...shared.warmWorkers,
      default: 1,
      description: `${shared.warmWorkers.description}. Each is an interpreter`,
    })
    expect(tuned.maxValueDepth).toEqual({ ...shared.maxValueDepth, maximum: 1000 })
    expect(tuned.maxWallMs).toEqual(shared.maxWallMs)
  })

  it('spread into a configSchema spec: defaults filled, bounds refused in the shared wording', () => {
    const schema = configSchema({
      type: 'object',
      additionalProperties: false,
      properties: {
        ...runtimeConfigFields({ maxValueDepth: { maximum: 1000 } }),
        engine: { type: 'string' },
      },
    })
    const toError = (issues: readonly string[]) => new RangeError(issues.join('; '))
    expect(resolveConfig(schema, undefined, toError)).toMatchObject({ computeMs: 30_000, warmWorkers: 2 })
    expect(() => resolveConfig(schema, { maxValueDepth: 1001, computeMs: 0 }, toError)).toThrow(
      new RangeError(
        '$.computeMs: expected number >= 1, got 0; $.maxValueDepth: expected number <= 1000, got 1001',
      ),
    )
  })
})

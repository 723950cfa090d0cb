import { afterAll, describe, expect, it } from 'vitest'
import {
  assertSupportedJsonSchema,
  createPyRenderContext,
  type JsonSchemaNode,
  jsonSchemaToPy,
  jsonSchemaToTs,
  snapshotJson,
  type ValueSchemaSpec,
  validateArgs,
  validateJsonSchemaValue,
  valueSchemaSpecToJsonSchema,
} from '../src/index'
import { setFastChecksEnabled } from '../src/internal/jit-checker'
import { STACK_SAFE_DEPTH } from './fixtures/stack-depth'

const DEPTH = STACK_SAFE_DEPTH

function nestedArraySpec(depth: number): ValueSchemaSpec {
  let spec: ValueSchemaSpec = { type: 'string' }
  for (let i = 0; i < depth; i++) spec = { type: 'array', items: spec }
  return spec
}

function nestedObjectSpec(depth: number): ValueSchemaSpec {
  let spec: ValueSchemaSpec = { type: 'integer' }
  for (let i = 0; i < depth; i++) {
    spec = { type: 'object', additionalProperties: false, properties: { next: { ...spec, required: true } } }
  }
  return spec
}

function nestedOneOfSpec(depth: number): ValueSchemaSpec {
  let spec: ValueSchemaSpec = { type: 'string' }
  for (let i = 0; i < depth; i++) spec = { oneOf: [{ type: 'array', items: spec }, { type: 'null' }] }
  return spec
}

function nestedArrayValue(depth: number, leaf: unknown): unknown {
  let value = leaf
  for (let i = 0; i < depth; i++) value = [value]
  return value
}

function nestedObjectValue(depth: number, leaf: unknown): unknown {
  let value = leaf
  for (let i = 0; i < depth; i++) value = { next: value }
  return value
}

describe(`stack safety at ${DEPTH} levels`, { timeout: 180_000 }, () => {
  afterAll(() => setFastChecksEnabled(true))

  it('snapshotJson copies a deeply nested value', () => {
    const input = nestedObjectValue(DEPTH, [1])
    let copy = snapshotJson(input) as unknown
    let depth = 0
    while (typeof copy === 'object' && copy !== null && !Array.isArray(copy)) {
      expect(Object.isFrozen(copy)).toBe(true)
      copy = (copy as { next: unknown }).next
      depth++
    }
    expect(depth).toBe(DEPTH)
    expect(copy).toEqual([1])
  })

  it('compiles, asserts, validates and renders nested arrays', () => {
    const node = valueSchemaSpecToJsonSchema(nestedArraySpec(DEPTH))
    assertSupportedJsonSchema(node)
    expect(validateJsonSchemaValue(node, nestedArrayValue(DEPTH, 'leaf'))).toEqual([])
    const violations = validateJsonSchemaValue(node, nestedArrayValue(DEPTH, 7))
    expect(violations).toHaveLength(1)
    expect(violations[0]!.path).toBe(`$${'[0]'.repeat(DEPTH)}`)
    expect(jsonSchemaToTs(node)).toBe(`string${'[]'.repeat(DEPTH)}`)
    expect(jsonSchemaToPy(node)).toBe(`${'list['.repeat(DEPTH)}str${']'.repeat(DEPTH)}`)
  })

  it('snapshotJson reports a lossy leaf deep down with its full path', () => {
    let error: unknown
    try {
      snapshotJson(nestedArrayValue(DEPTH, undefined))
    } catch (caught) {
      error = caught
    }
    expect((error as { path: string }).path).toBe(`$${'[0]'.repeat(DEPTH)}`)
  })

  it('compiles, validates and renders nested objects', () => {
    const node = valueSchemaSpecToJsonSchema(nestedObjectSpec(DEPTH))
    expect(validateJsonSchemaValue(node, nestedObjectValue(DEPTH, 1))).toEqual([])
    const bad = validateJsonSchemaValue(node, nestedObjectValue(DEPTH, 'x'))
    expect(bad).toEqual([{ path: `$${'.next'.repeat(DEPTH)}`, message: 'expected integer, got string' }])
    expect(
      validateArgs(
        { root: { ...nestedObjectSpec(DEPTH), required: true } },
        { root: nestedObjectValue(DEPTH, 1) },
      ),
    ).toEqual([])
    const ts = jsonSchemaToTs(node)
    // The innermost levels fit on one line; every other level takes two.
    expect(ts.split('\n').length).toBeGreaterThan(2 * DEPTH - 40)
    const ctx = createPyRenderContext()
    expect(jsonSchemaToPy(node, ctx.named('Deep'))).toBe('Deep')
    expect(ctx.declaredNames()).toHaveLength(DEPTH)
  })

  it('validates nested oneOf without recursion (interpreter and generated checks)', () => {
    const spec = nestedOneOfSpec(DEPTH)
    for (const fast of [true, false]) {
      setFastChecksEnabled(fast)
      const fresh: JsonSchemaNode = valueSchemaSpecToJsonSchema(spec)
      expect(validateJsonSchemaValue(fresh, nestedArrayValue(DEPTH, 'x'))).toEqual([])
      expect(validateJsonSchemaValue(fresh, nestedArrayValue(DEPTH - 1, null))).toEqual([])
      expect(validateJsonSchemaValue(fresh, nestedArrayValue(DEPTH, 1))).toHaveLength(1)
      // rendered from a node already converted at full depth: the renderer's own walk is the same
      if (fast) expect(jsonSchemaToTs(fresh).length).toBeGreaterThan(DEPTH)
    }
  })
})

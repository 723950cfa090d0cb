import { describe, expect, it } from 'vitest'
import { compileJsonSchemaValidator, type JsonSchemaNode } from '../src/index'
import { compileSchema } from '../src/internal/compile-schema'
import { compilePredicate } from '../src/internal/jit-checker'
import { functionNodes } from '../src/internal/jit-function-nodes'

// Which nodes the generated check declares as functions decides its size: inlining a subtree
// shared by several parents would repeat it once per path through the schema.
describe('generated check shape', () => {
  /** d0 is a leaf; every later definition applies the previous one twice (2^depth paths). */
  function referenceBomb(depth: number): JsonSchemaNode {
    const $defs: Record<string, JsonSchemaNode> = { d0: { type: 'string', minLength: 1 } }
    for (let i = 1; i <= depth; i++)
      $defs[`d${i}`] = { allOf: [{ $ref: `#/$defs/d${i - 1}` }, { $ref: `#/$defs/d${i - 1}` }] }
    return { $defs, $ref: `#/$defs/d${depth}` }
  }

  it('declares shared subtrees once, so a reference bomb compiles to linear code', () => {
    const root = compileSchema(referenceBomb(40)).root
    const functions = functionNodes(root)!
    // The root and one function per shared definition; the shared leaf d0 is inlined.
    expect(functions.size).toBeLessThanOrEqual(1 + 40)
    // Generating code for 2^40 paths would never finish; a function per definition is instant.
    expect(compilePredicate(root)).not.toBeNull()
    // Checking a value still follows every path (as any validator must): keep that one small.
    const check = compileJsonSchemaValidator(referenceBomb(8))
    expect(check('x')).toEqual([])
    expect(check('')).not.toEqual([])
  })

  it('inlines a $ref used once and keeps a recursive one a function', () => {
    const once = compileSchema({
      $defs: { id: { type: 'string' }, pair: { type: 'object', properties: { a: { $ref: '#/$defs/id' } } } },
      $ref: '#/$defs/pair',
    }).root
    expect(functionNodes(once)!.size).toBe(1)
    const recursive = compileSchema({
      $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' } } } },
      $ref: '#/$defs/node',
    }).root
    expect(functionNodes(recursive)!.size).toBe(2)
  })
})

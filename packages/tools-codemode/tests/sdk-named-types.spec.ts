import type { ToolSchema } from '@dsh/tools-core'
import { describe, expect, it } from 'vitest'
import { renderPythonSdk } from '../src/sdk/python'
import { renderTypeScriptSdk } from '../src/sdk/typescript'
import { checkPython, checkTypeScript, splitFences } from './fixtures/sdk-checkers'

// Full JSON Schema straight to the renderers (the registration gate is another change's job).
const tree = (leaf: string) => ({
  type: 'object',
  properties: { root: { $ref: '#/$defs/Node' } },
  required: ['root'],
  $defs: {
    Node: {
      type: 'object',
      description: 'A tree node.',
      properties: { value: { type: leaf }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } },
      required: ['value'],
    },
  },
})

const tool = (name: string, parameters: object, outputSchema: unknown = { type: 'null' }): ToolSchema =>
  ({ name, description: `Tool ${name}.`, parameters, outputSchema }) as ToolSchema

const TOOLS = [
  tool('walk_a', tree('string')),
  tool('walk_b', tree('string'), tree('string')),
  tool('walk_c', tree('number')),
  tool('bounded', {
    type: 'object',
    properties: {
      count: { type: 'integer', minimum: 1, maximum: 10, default: 3, examples: [5] },
      mode: { type: ['string', 'null'], enum: ['fast', 'slow', null] },
      pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false },
      env: { type: 'object', additionalProperties: { type: 'string' } },
    },
  }),
]

describe('SDK named types', () => {
  it('declares byte-identical definitions once and disambiguates different ones (TypeScript)', () => {
    const text = renderTypeScriptSdk(TOOLS)
    expect(text.match(/^type Node = /gm)).toHaveLength(1)
    expect(text.match(/^type Node2 = /gm)).toHaveLength(1)
    expect(text).toContain('walk_a(args: { root: Node }): Promise<null>;')
    expect(text).toContain('walk_b(args: { root: Node }): Promise<{ root: Node }>;')
    expect(text).toContain('walk_c(args: { root: Node2 }): Promise<null>;')
    const { diagnostics, declared } = checkTypeScript(splitFences(text).code)
    expect(diagnostics).toEqual([])
    expect(declared).toEqual(expect.arrayContaining(['Node', 'Node2', 'ToolArgsMap', 'ToolOutputMap']))
    expect(renderTypeScriptSdk([...TOOLS].reverse())).toBe(text)
  })

  it('declares byte-identical definitions once and disambiguates different ones (Python)', () => {
    const text = renderPythonSdk(TOOLS)
    const report = checkPython(splitFences(text).code)
    expect(report.error).toBeUndefined()
    const names = report.classes.map((klass) => klass.name)
    expect(names.filter((name) => name === 'Node')).toHaveLength(1)
    expect(names).toContain('Node2')
    expect(text).toContain('children: NotRequired[list[Node]]')
    expect(renderPythonSdk([...TOOLS].reverse())).toBe(text)
  })

  it('keeps every constraint, default and example in front of the model', () => {
    const typescript = renderTypeScriptSdk(TOOLS)
    for (const part of ['@minimum 1', '@maximum 10', '@default 3', '@example 5', '/** A tree node. */']) {
      expect(typescript).toContain(part)
    }
    expect(typescript).toContain('mode?: "fast" | "slow" | null;')
    expect(typescript).toContain('pair?: [string?, number?];')
    expect(typescript).toContain('env?: { [key: string]: string };')
    const python = renderPythonSdk(TOOLS)
    for (const part of [
      '# minimum: 1',
      '# maximum: 10',
      '# Default: 3',
      '# Example: 5',
      'env: NotRequired[dict[str, str]]',
    ]) {
      expect(python).toContain(part)
    }
  })
})

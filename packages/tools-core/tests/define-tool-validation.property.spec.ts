import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  compileJsonSchemaValidator,
  compileParameterSpecValidator,
  compileValueSpecValidator,
  defineTool,
  type JsonValue,
  type ParameterSchemaSpec,
  parameterSchemaSpecToJsonSchema,
  type ToolDefinition,
  type ValueSchemaSpec,
  valueSchemaSpecToJsonSchema,
} from '../src/index'
import { compileTool } from '../src/internal/compiled-tool'

// tools-schema's differential tests prove compileParameterSpecValidator / compileValueSpecValidator
// / compileJsonSchemaValidator accept exactly what ajv accepts; this proves a registered
// defineTool validates with exactly those (same compiled schema, same verdict on every value).

const leaf = fc.constantFrom<ValueSchemaSpec>(
  { type: 'string', default: 'x' },
  { type: 'integer', examples: [1] },
  { type: 'number' },
  { type: 'boolean', deprecated: true },
  { type: 'null', title: 'n' },
  { type: 'json' },
  { type: 'array' },
  { type: 'object', additionalProperties: true },
)
const spec: fc.Arbitrary<ValueSchemaSpec> = fc.letrec<{ spec: ValueSchemaSpec }>((tie) => ({
  spec: fc.oneof(
    { depthSize: 'small' },
    leaf,
    tie('spec').map((items): ValueSchemaSpec => ({ type: 'array', items })),
    fc
      .dictionary(
        fc.constantFrom('a', 'b', 'toString'),
        fc.record({ s: tie('spec'), required: fc.boolean() }),
        {
          maxKeys: 2,
        },
      )
      .map(
        (fields): ValueSchemaSpec => ({
          type: 'object',
          additionalProperties: false,
          properties: Object.fromEntries(
            Object.entries(fields).map(([k, { s, required }]) => [k, { ...s, required }]),
          ),
        }),
      ),
    fc.tuple(tie('spec'), tie('spec')).map(([a, b]): ValueSchemaSpec => ({ oneOf: [a, b] })),
  ),
})).spec

const render = () => []
// Specs here are runtime data (a union, not literals), so the typed overloads are bypassed.
const define = defineTool as (spec: unknown) => ToolDefinition

describe('defineTool validates with exactly the tools-schema validators', () => {
  it('DSL parameters, DSL output and raw output', () => {
    fc.assert(
      fc.property(spec, spec, fc.jsonValue(), fc.jsonValue(), (p, o, args, value) => {
        const parameters = { x: { ...p, required: true } } as ParameterSchemaSpec
        const dsl = compileTool(
          define({
            name: 't',
            description: '',
            parameters,
            output: { schema: o, render },
            execute: () => null,
          }),
        )
        const rawNode = valueSchemaSpecToJsonSchema(o)
        const raw = compileTool(
          define({
            name: 't',
            description: '',
            parameters,
            output: { jsonSchema: rawNode, render },
            execute: () => null,
          }),
        )
        expect(dsl.schema.parameters).toEqual(parameterSchemaSpecToJsonSchema(parameters))
        expect(dsl.schema.outputSchema).toEqual(rawNode)
        expect(raw.schema.outputSchema).toEqual(rawNode)
        const wrapped = { x: args as JsonValue }
        const argsOk = compileParameterSpecValidator(parameters)(wrapped)
        expect(dsl.checkArgs(wrapped)).toEqual(argsOk)
        expect(dsl.checkOutput(value)).toEqual(compileValueSpecValidator(o)(value))
        expect(raw.checkOutput(value)).toEqual(compileJsonSchemaValidator(rawNode)(value))
      }),
      { numRuns: 300, seed: 9 },
    )
  })
})

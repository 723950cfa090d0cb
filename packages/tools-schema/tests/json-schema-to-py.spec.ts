import { describe, expect, it } from 'vitest'
import { createPyRenderContext, isPythonFieldName, jsonSchemaToPy, toPythonClassName } from '../src/index'
import { codegenSchemas } from './fixtures/codegen-schemas'

function renderAll(): string {
  const ctx = createPyRenderContext({ reservedNames: ['tools'] })
  const lines = Object.entries(codegenSchemas).map(([name, schema]) => {
    const className = `${toPythonClassName(name)}Args`
    return `${className}_T = ${jsonSchemaToPy(schema, ctx.named(className))}`
  })
  const plain = Object.entries(codegenSchemas).map(([name, schema]) => `${name} = ${jsonSchemaToPy(schema)}`)
  return `# with a naming context\n${ctx.declarations()}\n\n${lines.join('\n')}\n\n# without a context\n${plain.join('\n')}\n`
}

describe('jsonSchemaToPy', () => {
  it('matches the file snapshot for a varied schema set', async () => {
    await expect(renderAll()).toMatchFileSnapshot('./__snapshots__/json-schema-to-py.py.txt')
  })

  it('is deterministic: same input, same bytes', () => {
    expect(renderAll()).toBe(renderAll())
  })

  it('without a context every object renders dict[str, Any]', () => {
    expect(jsonSchemaToPy({ type: 'object', properties: { a: { type: 'string' } } })).toBe('dict[str, Any]')
    expect(jsonSchemaToPy({ type: 'array', items: { type: 'object' } })).toBe('list[dict[str, Any]]')
  })

  it('with a context objects become named TypedDicts with NotRequired optionals', () => {
    const ctx = createPyRenderContext()
    const type = jsonSchemaToPy(
      {
        type: 'object',
        properties: {
          path: { type: 'string' },
          items: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer' } } } },
        },
        required: ['path'],
      },
      ctx.named('ReadArgs'),
    )
    expect(type).toBe('ReadArgs')
    expect(ctx.declaredNames()).toEqual(['ReadArgsItemsItem', 'ReadArgs'])
    expect(ctx.declarations()).toBe(
      'class ReadArgsItemsItem(TypedDict):\n    n: NotRequired[int]\n\n' +
        'class ReadArgs(TypedDict):\n    path: str\n    items: NotRequired[list[ReadArgsItemsItem]]',
    )
  })

  it('class names are collision-free across renders sharing a context', () => {
    const ctx = createPyRenderContext()
    const schema = { type: 'object', properties: { a: { type: 'string' } } }
    expect(jsonSchemaToPy(schema, ctx.named('ReadArgs'))).toBe('ReadArgs')
    expect(jsonSchemaToPy(schema, ctx.named('ReadArgs'))).toBe('ReadArgs2')
    expect(jsonSchemaToPy(schema, ctx.named('Any'))).toBe('Any2')
  })

  it('falls back to dict[str, Any] for illegal or keyword field names', () => {
    const ctx = createPyRenderContext()
    expect(jsonSchemaToPy({ type: 'object', properties: { 'my-key': { type: 'string' } } }, ctx)).toBe(
      'dict[str, Any]',
    )
    expect(jsonSchemaToPy({ type: 'object', properties: { class: { type: 'string' } } }, ctx)).toBe(
      'dict[str, Any]',
    )
    expect(ctx.declarations()).toBe('')
    expect(isPythonFieldName('from')).toBe(false)
    expect(isPythonFieldName('file_path')).toBe(true)
  })

  it('renders enums as Literal, oneOf as Union and null as None', () => {
    expect(jsonSchemaToPy({ type: 'string', enum: ['a', 'b'] })).toBe('Literal["a", "b"]')
    expect(jsonSchemaToPy({ enum: [true, null, 3] })).toBe('Literal[True, None, 3]')
    expect(jsonSchemaToPy({ type: 'number', enum: [1.5] })).toBe('float')
    expect(jsonSchemaToPy({ oneOf: [{ type: 'string' }, { type: 'null' }] })).toBe('Union[str, None]')
    expect(jsonSchemaToPy({ type: 'null' })).toBe('None')
  })

  it('never throws: unsupported, hostile and cyclic inputs degrade to Any', () => {
    const cyclic: Record<string, unknown> = { type: 'array' }
    cyclic.items = cyclic
    expect(jsonSchemaToPy(cyclic)).toBe('list[Any]')
    expect(jsonSchemaToPy({ allOf: [] })).toBe('Any')
    expect(jsonSchemaToPy(undefined)).toBe('Any')
    expect(
      jsonSchemaToPy(
        new Proxy(
          {},
          {
            ownKeys: () => {
              throw new Error('x')
            },
          },
        ),
        createPyRenderContext(),
      ),
    ).toBe('Any')
  })
})

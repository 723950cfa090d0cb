// `formats: 'assert'` in the ToolRuntime config (SPEC §9): every registration's raw JSON Schema
// `parameters` and `output.schema` check `format` under it; the default keeps `format` an
// annotation. Raw definitions are what tools-mcp registers, so MCP tools take this path too.
import { describe, expect, it } from 'vitest'
import ToolRuntime, {
  createScope,
  defineTool,
  type JsonSchemaNode,
  type JsonValue,
  TOOL_SEARCH_TOOL_NAME,
  type ToolDefinition,
  type ToolExecutionResult,
  type ToolRuntimeConfig,
} from '../src/index'
import { call, createRuntime } from './fixtures/runtime'

/** One value that violates each format and one that satisfies it. */
const FORMATS: Record<string, { bad: string; good: string }> = {
  email: { bad: 'not an email', good: 'ada@example.com' },
  'date-time': { bad: '2026-13-01T25:00:00Z', good: '2026-12-01T15:44:28Z' },
  date: { bad: '2026-02-30', good: '2026-02-28' },
  uri: { bad: 'no scheme here', good: 'https://example.com/a?b=c' },
  ipv4: { bad: '256.1.1.1', good: '192.168.0.1' },
  ipv6: { bad: '1:::2', good: '::1' },
  uuid: { bad: '123e4567-e89b-12d3-a456', good: '123e4567-e89b-12d3-a456-426614174000' },
  hostname: { bad: '-bad-.example', good: 'example.com' },
}

const render = (_args: unknown, value: JsonValue) => [{ type: 'text' as const, text: JSON.stringify(value) }]

/** A raw definition (the shape tools-mcp registers) whose argument `v` has `format`. */
function rawTool(name: string, format: string, returns: JsonValue = null): ToolDefinition {
  return {
    name,
    description: `takes a ${format}`,
    parameters: { type: 'object', properties: { v: { type: 'string', format } }, required: ['v'] },
    output: { schema: {}, render },
    execute: () => returns,
  }
}

/** A `defineTool` tool whose raw JSON Schema output has `format`; it returns its argument. */
function echoFormat(name: string, format: string) {
  const schema: JsonSchemaNode = { type: 'string', format }
  return defineTool({
    name,
    description: `returns a ${format}`,
    parameters: { v: { type: 'string', required: true } },
    output: { jsonSchema: schema, render },
    execute: (args) => args.v,
  })
}

const code = (result: ToolExecutionResult) => (result.isError ? result.error.info?.code : 'ok')

async function runtime(config: ToolRuntimeConfig) {
  return createRuntime(config)
}

describe("formats: 'assert'", () => {
  for (const [format, { bad, good }] of Object.entries(FORMATS)) {
    it(`${format}: a violating argument is INVALID_ARGS under assert and accepted by default`, async () => {
      const asserted = await runtime({ formats: 'assert' })
      const annotated = await runtime({})
      const explicit = await runtime({ formats: 'annotate' })
      for (const ctx of [asserted, annotated, explicit]) ctx.tools.register(rawTool('take', format))
      const rejected = await asserted.tools.execute(call('take', { v: bad }))
      expect(code(rejected)).toBe('INVALID_ARGS')
      expect(rejected.isError && rejected.error.message).toContain('$.v')
      expect(rejected.isError && rejected.error.message).toContain(format)
      expect(code(await asserted.tools.execute(call('take', { v: good })))).toBe('ok')
      expect(code(await annotated.tools.execute(call('take', { v: bad })))).toBe('ok')
      expect(code(await explicit.tools.execute(call('take', { v: bad })))).toBe('ok')
    })

    it(`${format}: a violating output is INVALID_OUTPUT under assert and accepted by default`, async () => {
      const asserted = await runtime({ formats: 'assert' })
      const annotated = await runtime({})
      for (const ctx of [asserted, annotated]) ctx.tools.register(echoFormat('give', format))
      const rejected = await asserted.tools.execute(call('give', { v: bad }))
      expect(code(rejected)).toBe('INVALID_OUTPUT')
      expect(rejected.isError && rejected.error.message).toContain(format)
      const accepted = await asserted.tools.execute(call('give', { v: good }))
      expect(!accepted.isError && accepted.value).toBe(good)
      const annotatedBad = await annotated.tools.execute(call('give', { v: bad }))
      expect(!annotatedBad.isError && annotatedBad.value).toBe(bad)
    })
  }

  it('format names outside the asserted list stay annotations under assert', async () => {
    const ctx = await runtime({ formats: 'assert' })
    ctx.tools.register(rawTool('take', 'x-made-up'))
    expect(code(await ctx.tools.execute(call('take', { v: 'anything' })))).toBe('ok')
  })

  it('asserts formats nested in $defs, arrays and unions, not only at the top', async () => {
    const ctx = await runtime({ formats: 'assert' })
    ctx.tools.register({
      name: 'nested',
      description: 'nested formats',
      parameters: {
        type: 'object',
        $defs: { contact: { type: 'object', properties: { mail: { type: 'string', format: 'email' } } } },
        properties: {
          people: { type: 'array', items: { $ref: '#/$defs/contact' } },
          at: { anyOf: [{ type: 'null' }, { type: 'string', format: 'date-time' }] },
        },
      },
      output: { schema: {}, render },
      execute: () => null,
    })
    const bad = await ctx.tools.execute(call('nested', { people: [{ mail: 'a@b.co' }, { mail: 'nope' }] }))
    expect(code(bad)).toBe('INVALID_ARGS')
    expect(bad.isError && bad.error.message).toContain('$.people[1].mail')
    expect(code(await ctx.tools.execute(call('nested', { at: 'yesterday' })))).toBe('INVALID_ARGS')
    expect(code(await ctx.tools.execute(call('nested', { at: null, people: [{ mail: 'a@b.co' }] })))).toBe(
      'ok',
    )
  })

  it('the config is per runtime: scope registrations inherit it, another runtime is unaffected', async () => {
    const asserted = await runtime({ formats: 'assert' })
    const agent = createScope(asserted, 'agent-a')
    agent.ctx.tools.register(rawTool('local', 'email'))
    const other = await runtime({})
    const otherAgent = createScope(other, 'agent-a')
    otherAgent.ctx.tools.register(rawTool('local', 'email'))
    expect(code(await agent.ctx.tools.execute(call('local', { v: 'nope' })))).toBe('INVALID_ARGS')
    expect(code(await otherAgent.ctx.tools.execute(call('local', { v: 'nope' })))).toBe('ok')
  })

  it('scheduling sees the same check: a format-violating call of a read-only tool is exclusive', async () => {
    const asserted = await runtime({ formats: 'assert' })
    const annotated = await runtime({})
    const readOnly = { ...rawTool('stat', 'ipv4'), annotations: { readOnly: true } }
    asserted.tools.register(readOnly)
    annotated.tools.register(readOnly)
    expect(asserted.tools.executionMode(call('stat', { v: '1.2.3.4' }))).toBe('parallel')
    expect(asserted.tools.executionMode(call('stat', { v: '1.2.3.400' }))).toBe('exclusive')
    expect(annotated.tools.executionMode(call('stat', { v: '1.2.3.400' }))).toBe('parallel')
  })

  it('a deferred tool, once loaded through tool_search, is checked the same way', async () => {
    const ctx = await runtime({ formats: 'assert' })
    let ran = 0
    ctx.tools.register({
      ...rawTool('send_mail', 'email'),
      description: 'Send an email to a recipient.',
      execute: () => {
        ran++
        return null
      },
    })
    ctx.tools.defer(['send_mail'])
    await ctx.tools.execute(call(TOOL_SEARCH_TOOL_NAME, { query: 'send an email' }))
    expect(code(await ctx.tools.execute(call('send_mail', { v: 'not-an-address' })))).toBe('INVALID_ARGS')
    expect(code(await ctx.tools.execute(call('send_mail', { v: 'ada@example.com' })))).toBe('ok')
    expect(ran).toBe(1)
  })

  it('rejects any other value with a clear error naming the key', async () => {
    const validate = ToolRuntime.Config['~standard'].validate
    for (const bad of ['strict', 'ASSERT', true, 1, null, {}, ['assert']]) {
      const checked = validate({ formats: bad })
      expect(checked.issues?.[0]?.path, String(bad)).toEqual(['formats'])
      expect(checked.issues?.[0]?.message).toMatch(
        /^\$\.formats: expected (one of "annotate", "assert"|string)/,
      )
    }
    expect(validate({ formats: 'assert' }).issues).toBeUndefined()
    expect(validate({ formats: 'annotate' }).issues).toBeUndefined()
    expect(validate({}).issues).toBeUndefined()
    await expect(createRuntime({ formats: 'strict' as 'assert' })).rejects.toThrow(/formats/)
  })
})

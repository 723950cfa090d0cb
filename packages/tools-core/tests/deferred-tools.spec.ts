// Deferred tools: defer() scoping, tool_search ranking and loading per agent, the hint on a
// direct call, disposal and hostile queries.
import type { Context } from '@deepseek-ai/cordis'
import { afterEach, describe, expect, it } from 'vitest'
import { rankTools, tokenize } from '../src/deferred/rank-tools'
import { createScope, defineTool, TOOL_SEARCH_TOOL_NAME, type ToolExecutionResult } from '../src/index'
import { call, createRuntime } from './fixtures/runtime'

let app: Context | undefined
afterEach(async () => {
  await app?.fiber.dispose()
  app = undefined
})

const tool = (name: string, description: string, parameters: Record<string, 'string' | 'integer'>) =>
  defineTool({
    name,
    description,
    parameters: Object.fromEntries(
      Object.entries(parameters).map(([key, spec]) => [key, { type: spec, required: true }]),
    ),
    output: { schema: { type: 'string' }, render: (_a, value) => [{ type: 'text', text: value }] },
    execute: () => `${name} ran`,
  })

async function start() {
  app = await createRuntime()
  app.tools.register(tool('read_file', 'Read a file from disk.', { path: 'string' }))
  app.tools.register(
    tool('sendEmail', 'Send an email message to a recipient.', { recipient: 'string', body: 'string' }),
  )
  app.tools.register(tool('query_database', 'Run a SQL query against the warehouse.', { sqlText: 'string' }))
  app.tools.register(tool('get_weather', 'Current weather for a city.', { city: 'string' }))
  return app
}

const names = (ctx: Context, agent?: string) =>
  ctx.tools.assemble(agent === undefined ? {} : { agent }).tools.map((spec) => spec.name)
const matchesOf = (result: ToolExecutionResult) =>
  result.isError
    ? result.error.message
    : (result.value as { matches: { name: string }[] }).matches.map((m) => m.name)

describe('defer()', () => {
  it('a global defer hides the tools from every agent and offers tool_search', async () => {
    const ctx = await start()
    ctx.tools.defer(['sendEmail', 'query_database'])
    expect(names(ctx)).toEqual(['read_file', 'get_weather', TOOL_SEARCH_TOOL_NAME])
    expect(names(ctx, 'a')).toEqual(['read_file', 'get_weather', TOOL_SEARCH_TOOL_NAME])
    expect(ctx.tools.get('sendEmail')).toBeUndefined()
  })

  it('a scoped defer hides the tools from that agent only', async () => {
    const ctx = await start()
    const a = createScope(ctx, 'a')
    a.ctx.tools.defer((schema) => schema.name.startsWith('get_'))
    expect(names(ctx, 'a')).toEqual(['read_file', 'sendEmail', 'query_database', TOOL_SEARCH_TOOL_NAME])
    expect(names(ctx, 'b')).toEqual(['read_file', 'sendEmail', 'query_database', 'get_weather'])
    expect(names(ctx)).not.toContain(TOOL_SEARCH_TOOL_NAME)
    await a.dispose()
    expect(names(ctx, 'a')).toContain('get_weather')
  })

  it('dispose brings the tools back and removes tool_search', async () => {
    const ctx = await start()
    const dispose = ctx.tools.defer(['get_weather'])
    expect(names(ctx)).not.toContain('get_weather')
    dispose()
    expect(names(ctx)).toEqual(['read_file', 'sendEmail', 'query_database', 'get_weather'])
  })

  it('rejects empty filters and reserved names; a throwing predicate leaves tools visible', async () => {
    const ctx = await start()
    expect(() => ctx.tools.defer([])).toThrow(/non-empty/)
    expect(() => ctx.tools.defer(['run_code'])).toThrow(/reserved/)
    expect(() => ctx.tools.defer(['tool_search'])).toThrow(/reserved/)
    expect(() => ctx.tools.register(tool(TOOL_SEARCH_TOOL_NAME, 'x', {}))).toThrow(/reserved/)
    ctx.tools.defer(() => {
      throw new Error('nope')
    })
    expect(names(ctx)).toEqual(['read_file', 'sendEmail', 'query_database', 'get_weather'])
  })

  it('calling a deferred, unloaded tool is UNKNOWN_TOOL with a tool_search hint', async () => {
    const ctx = await start()
    ctx.tools.defer(['get_weather'])
    const result = await ctx.tools.execute(call('get_weather', { city: 'Oslo' }))
    expect(result.isError && result.error.info?.code).toBe('UNKNOWN_TOOL')
    expect(result.isError && result.error.message).toMatch(/deferred: call `tool_search`/)
    const unknown = await ctx.tools.execute(call('no_such_tool'))
    expect(unknown.isError && unknown.error.message).toBe('unknown tool: no_such_tool')
  })
})

describe('tool_search', () => {
  it('ranks by name, parameter names and description, and loads matches for the calling agent only', async () => {
    const ctx = await start()
    ctx.tools.defer(['sendEmail', 'query_database', 'get_weather'])
    const a = createScope(ctx, 'a')
    const found = await a.ctx.tools.execute(call(TOOL_SEARCH_TOOL_NAME, { query: 'send an email' }))
    expect(matchesOf(found)).toEqual(['sendEmail'])
    expect(found.content[0]).toMatchObject({ type: 'text' })
    expect((found.content[0] as { text: string }).text).toContain(
      'sendEmail(recipient: string (required), body: string (required))',
    )
    // Loaded for `a` from the next assembly (and callable now); `b` and the global layer still see it deferred.
    expect(names(ctx, 'a')).toContain('sendEmail')
    expect(names(ctx, 'b')).not.toContain('sendEmail')
    expect(names(ctx)).not.toContain('sendEmail')
    const ran = await a.ctx.tools.execute(call('sendEmail', { recipient: 'x', body: 'y' }))
    expect(ran.isError).toBe(false)
    const other = await ctx.tools.execute(call('sendEmail', { recipient: 'x', body: 'y' }, { agent: 'b' }))
    expect(other.isError && other.error.info?.code).toBe('UNKNOWN_TOOL')
  })

  it('matches parameter names split from camelCase and snake_case', async () => {
    const ctx = await start()
    ctx.tools.defer(['sendEmail', 'query_database', 'get_weather'])
    expect(matchesOf(await ctx.tools.execute(call(TOOL_SEARCH_TOOL_NAME, { query: 'sql text' })))).toEqual([
      'query_database',
    ])
    expect(
      matchesOf(await ctx.tools.execute(call(TOOL_SEARCH_TOOL_NAME, { query: 'weather in a city' }))),
    ).toEqual(['get_weather'])
  })

  it('disappears once everything deferred is loaded', async () => {
    const ctx = await start()
    ctx.tools.defer(['get_weather'])
    await ctx.tools.execute(call(TOOL_SEARCH_TOOL_NAME, { query: 'weather' }))
    expect(names(ctx)).toEqual(['read_file', 'sendEmail', 'query_database', 'get_weather'])
  })

  it('hostile queries (huge, unicode, punctuation only) return quickly and never throw', async () => {
    const ctx = await start()
    ctx.tools.defer(['sendEmail', 'get_weather'])
    for (const query of [
      'x'.repeat(5_000_000),
      '🙂'.repeat(10_000),
      '天気 の 都市',
      '!!!???',
      ' '.repeat(1000),
      'weather '.repeat(100_000),
    ]) {
      const result = await ctx.tools.execute(call(TOOL_SEARCH_TOOL_NAME, { query, limit: 3 }))
      expect(result.isError, query.slice(0, 20)).toBe(false)
    }
  })
})

describe('ranking', () => {
  it('tokenizes camelCase, snake_case, kebab-case, digits and any script', () => {
    expect(tokenize('getHTTPResponse_code-v2 天気')).toEqual([
      'get',
      'http',
      'response',
      'code',
      'v',
      '2',
      '天気',
    ])
  })

  it('is deterministic: ties break by name, whatever the input order', () => {
    const schemas = ['b_tool', 'a_tool', 'c_tool'].map((name) => ({
      name,
      description: 'same words here',
      parameters: { type: 'object' as const, properties: {} },
      outputSchema: {},
    }))
    const forward = rankTools(schemas, 'same words', 10).map((r) => r.tool.name)
    const backward = rankTools([...schemas].reverse(), 'same words', 10).map((r) => r.tool.name)
    expect(forward).toEqual(['a_tool', 'b_tool', 'c_tool'])
    expect(backward).toEqual(forward)
  })

  it('a name match outranks a description-only match', () => {
    const schema = (name: string, description: string) => ({
      name,
      description,
      parameters: { type: 'object' as const, properties: {} },
      outputSchema: {},
    })
    const ranked = rankTools(
      [schema('notes', 'Keeps a list of files.'), schema('list_files', 'Shows a directory.')],
      'list files',
      5,
    )
    expect(ranked.map((r) => r.tool.name)).toEqual(['list_files', 'notes'])
  })
})

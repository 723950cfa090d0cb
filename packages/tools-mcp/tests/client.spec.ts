import { describe, expect, it } from 'vitest'
import { call, createApp, inMemoryFixture, loadMcp, textOf } from './fixtures/app'

async function setup(
  options: Parameters<typeof inMemoryFixture>[0] = {},
  extra: Record<string, unknown> = {},
) {
  const app = await createApp()
  const fixture = inMemoryFixture(options)
  await loadMcp(app.ctx, { name: 'fx', transport: fixture.transport, ...extra })
  return { ...app, fixture }
}

describe('client plugin: listing and calling', () => {
  it('registers every server tool as <name>__<tool> with its inputSchema as parameters', async () => {
    const { ctx } = await setup()
    const echo = ctx.tools.schemas().find((schema) => schema.name === 'fx__echo')
    expect(echo?.parameters).toEqual({
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
    })
    expect(echo?.description).toBe('Echo text back.')
    const result = await call(ctx, 'fx__echo', { text: 'hi' })
    expect(result.isError).toBe(false)
    expect(result.isError === false && result.value).toEqual([{ type: 'text', text: 'hi' }])
    expect(textOf(result)).toBe('hi')
  })

  it('validates arguments against the server schema before anything reaches the server', async () => {
    const { ctx, fixture } = await setup()
    const result = await call(ctx, 'fx__echo', { text: 3 })
    expect(result.isError && result.error.info?.code).toBe('INVALID_ARGS')
    expect(fixture.servers[0]!.stats.calls).toBe(0)
  })

  it('outputSchema + structuredContent → the typed value', async () => {
    const { ctx } = await setup()
    expect(ctx.tools.schemas().find((schema) => schema.name === 'fx__add')?.outputSchema).toEqual({
      type: 'object',
      properties: { sum: { type: 'number' } },
      required: ['sum'],
    })
    const result = await call(ctx, 'fx__add', { a: 2, b: 3 })
    expect(result.isError === false && result.value).toEqual({ sum: 5 })
  })

  it('a structured tool shows the model the server content blocks; with none, the value as JSON', async () => {
    const structuredOnly = {
      name: 'structured_only',
      inputSchema: { type: 'object', properties: {} },
      outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
    }
    const { ctx } = await setup({ extraTools: [structuredOnly] })
    const add = await call(ctx, 'fx__add', { a: 2, b: 3 })
    expect(add.isError === false && add.value).toEqual({ sum: 5 })
    expect(add.content).toEqual([{ type: 'text', text: '5' }])
    const bare = await call(ctx, 'fx__structured_only')
    expect(bare.isError === false && bare.value).toEqual({ sum: 1 })
    expect(bare.content).toEqual([{ type: 'text', text: JSON.stringify({ sum: 1 }, null, 2) }])
    // A failed call keeps the failure text, not a previous call's blocks.
    const failed = await call(ctx, 'fx__add', { a: 2 })
    expect(failed.isError && failed.content[0]).toMatchObject({
      type: 'text',
      text: expect.stringMatching(/^Error: /),
    })
  })

  it('structured output that breaks its outputSchema is INVALID_OUTPUT; none at all is TOOL_FAILED', async () => {
    const declared = (name: string, outputSchema: object) => ({
      name,
      inputSchema: { type: 'object', properties: {} },
      outputSchema,
    })
    const { ctx } = await setup({
      extraTools: [
        declared('structured_only', { type: 'object', properties: { sum: { type: 'string' } } }),
        declared('text_only', { type: 'object', properties: {} }),
      ],
    })
    const mismatch = await call(ctx, 'fx__structured_only')
    expect(mismatch.isError && mismatch.error.info?.code).toBe('INVALID_OUTPUT')
    const missing = await call(ctx, 'fx__text_only')
    expect(missing.isError && missing.error.info?.code).toBe('TOOL_FAILED')
    expect(missing.isError && missing.error.message).toContain(
      'declares an outputSchema but returned no structuredContent',
    )
    expect(textOf(await call(ctx, 'fx__echo', { text: 'fine' }))).toBe('fine')
  })

  it('isError → TOOL_FAILED with the server text, naming the server', async () => {
    const { ctx } = await setup()
    const result = await call(ctx, 'fx__fail')
    expect(result.isError && result.error.info).toEqual({ name: 'McpServerError', code: 'TOOL_FAILED' })
    expect(result.isError && result.error.message).toContain('it broke: disk on fire')
    expect(result.isError && result.error.message).toContain('"fx"')
  })

  it('content blocks are the lossless value and render to text and image parts', async () => {
    const { ctx } = await setup()
    const result = await call(ctx, 'fx__blocks')
    if (result.isError) throw new Error(result.error.message)
    expect((result.value as { type: string }[]).map((block) => block.type)).toEqual([
      'text',
      'image',
      'audio',
      'resource_link',
      'resource',
      'resource',
    ])
    expect(result.content.map((part) => part.type)).toEqual(['text', 'image', 'text', 'text', 'text', 'text'])
    expect(result.content[1]).toMatchObject({ type: 'image', mediaType: 'image/png' })
    const texts = result.content.filter((part) => part.type === 'text').map((part) => part.text)
    expect(texts[1]).toMatch(/^\[audio audio\/wav, 3 bytes\]/)
    expect(texts[2]).toContain('file:///tmp/a.txt')
    expect(texts[3]).toContain('inline b')
    expect(texts[4]).toContain('binary, 4 bytes')
  })

  it('follows tools/list pagination', async () => {
    const { ctx } = await setup({ pageSize: 3, many: 10 })
    const names = ctx.tools.schemas().map((schema) => schema.name)
    expect(names).toContain('fx__echo')
    expect(names).toContain('fx__bulk_9')
    expect(names.filter((name) => name.startsWith('fx__bulk_'))).toHaveLength(10)
  })

  it('a custom prefix replaces <name>__', async () => {
    const { ctx } = await setup({}, { prefix: 'srv_' })
    expect(ctx.tools.get('srv_echo')).toBeDefined()
    expect(ctx.tools.get('fx__echo')).toBeUndefined()
  })

  it('notifications/tools/list_changed re-registers: removed tools disappear, new ones appear', async () => {
    const { ctx } = await setup()
    let changes = 0
    ctx.on('tools/changed', () => {
      changes++
    })
    const add = ctx.tools.get('fx__add')
    await call(ctx, 'fx__mutate')
    for (let i = 0; i < 200 && ctx.tools.get('fx__echo_v2') === undefined; i++)
      await new Promise((r) => setTimeout(r, 5))
    expect(ctx.tools.get('fx__echo_v2')).toBeDefined()
    expect(ctx.tools.get('fx__echo')).toBeUndefined()
    // Unchanged tools keep their registration.
    expect(ctx.tools.get('fx__add')).toBe(add)
    expect(changes).toBe(2)
    const result = await call(ctx, 'fx__echo_v2', { text: 'new' })
    expect(textOf(result)).toBe('new')
  })

  it('dispose removes every tool of the server', async () => {
    const app = await createApp()
    const fixture = inMemoryFixture()
    const fiber = await loadMcp(app.ctx, { name: 'fx', transport: fixture.transport })
    expect(app.ctx.tools.get('fx__echo')).toBeDefined()
    await fiber.dispose()
    expect(app.ctx.tools.schemas().filter((schema) => schema.name.startsWith('fx__'))).toEqual([])
  })
})

describe('client plugin: schemas the gate refuses', () => {
  it('a refused inputSchema is reported with the server, tool and keyword path; the tool is not registered', async () => {
    const { ctx, warnings } = await setup()
    expect(ctx.tools.get('fx__refused_input')).toBeUndefined()
    const warning = warnings.find((entry) => entry.tool === 'refused_input')
    expect(warning).toMatchObject({ server: 'fx', tool: 'refused_input' })
    expect(warning?.message).toMatch(/^not registered: inputSchema refused: \$\.properties\.n\.pattern: /)
    // Every other tool is there regardless.
    expect(ctx.tools.get('fx__echo')).toBeDefined()
    expect(ctx.tools.get('fx__add')).toBeDefined()
  })

  it('a refused outputSchema keeps the tool, valued as its content blocks, with a warning', async () => {
    const { ctx, warnings } = await setup()
    expect(ctx.tools.get('fx__refused_output')).toBeDefined()
    const warning = warnings.find((entry) => entry.tool === 'refused_output')
    expect(warning?.message).toMatch(
      /^outputSchema refused \(.*unevaluatedProperties.*\); the value is the content blocks instead$/,
    )
    const outputSchema = ctx.tools
      .schemas()
      .find((schema) => schema.name === 'fx__refused_output')?.outputSchema
    expect(outputSchema).toMatchObject({ type: 'array' })
  })

  it('a root draft-07 $schema registers as it is, judged in that dialect, with no warning', async () => {
    const { ctx, warnings } = await setup()
    const schema = ctx.tools.schemas().find((entry) => entry.name === 'fx__draft07')
    const draft07 = 'http://json-schema.org/draft-07/schema#'
    expect(schema?.parameters).toMatchObject({ $schema: draft07, type: 'object', required: ['path'] })
    expect(schema?.outputSchema).toMatchObject({ $schema: draft07, type: 'object', required: ['content'] })
    const result = await call(ctx, 'fx__draft07', { path: '/x' })
    expect(result.isError === false && result.value).toEqual({ content: 'read /x' })
    expect(warnings.filter((entry) => entry.tool === 'draft07')).toEqual([])
  })
})

describe('client plugin: annotations', () => {
  it('untrusted by default: no annotations, exclusive scheduling, no approval asked', async () => {
    const { ctx } = await setup()
    expect(ctx.tools.get('fx__stat')?.annotations).toBeUndefined()
    expect(
      ctx.tools.executionMode({
        callId: 'x',
        name: 'fx__stat',
        arguments: {},
        signal: new AbortController().signal,
      }),
    ).toBe('exclusive')
    expect((await call(ctx, 'fx__wipe')).isError).toBe(false)
  })

  it('trusted: readOnlyHint → parallel, destructiveHint → ask (denied without an approval service)', async () => {
    const { ctx } = await setup({}, { trustAnnotations: true })
    expect(ctx.tools.get('fx__stat')?.annotations).toEqual({ readOnly: true })
    expect(
      ctx.tools.executionMode({
        callId: 'x',
        name: 'fx__stat',
        arguments: {},
        signal: new AbortController().signal,
      }),
    ).toBe('parallel')
    const denied = await call(ctx, 'fx__wipe')
    expect(denied.isError && denied.error.info?.code).toBe('DENIED')
    expect(denied.isError && denied.error.message).toContain('destructive')
    expect((await call(ctx, 'fx__stat')).isError).toBe(false)
  })

  it('trusted destructive tools go to the approval service', async () => {
    const { ctx } = await setup({}, { trustAnnotations: true })
    const asked: string[] = []
    await ctx.plugin({
      name: 'approve-all',
      apply: (child: typeof ctx) => {
        child.provide('approval', {
          request: async (exec: { name: string }) => {
            asked.push(exec.name)
            return { approved: true }
          },
        })
      },
    })
    const result = await call(ctx, 'fx__wipe')
    expect(result.isError).toBe(false)
    expect(asked).toEqual(['fx__wipe'])
  })
})

// Result budgets: cutting model-facing content structurally, the handle store and read_result.
import type { Context } from '@deepseek-ai/cordis'
import { afterEach, describe, expect, it } from 'vitest'
import {
  createScope,
  defineTool,
  READ_RESULT_TOOL_NAME,
  type ToolExecutionResult,
  ToolRuntime,
  type ToolRuntimeConfig,
} from '../src/index'
import { call, createRuntime } from './fixtures/runtime'

let app: Context | undefined
afterEach(async () => {
  await app?.fiber.dispose()
  app = undefined
})

const BUDGET = 1024

async function start(config: ToolRuntimeConfig = { resultBudget: { maxContentBytes: BUDGET } }) {
  app = await createRuntime(config)
  return app
}

/** A tool returning `args.text` rendered as one text part. */
const textTool = (name = 'big') =>
  defineTool({
    name,
    description: 'Returns the text it is given.',
    parameters: { text: { type: 'string', required: true } },
    output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
    execute: (args) => args.text,
  })

const textOf = (result: ToolExecutionResult) =>
  result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('')
const bytes = (result: ToolExecutionResult) =>
  result.content.reduce(
    (sum, part) => sum + (part.type === 'text' ? Buffer.byteLength(part.text) : part.data.length),
    0,
  )
const handleOf = (result: ToolExecutionResult) =>
  /read_result handle=(res_[A-Za-z0-9_-]+)/.exec(textOf(result))?.[1]

async function readAll(ctx: Context, handle: string, agent?: string, limit?: number): Promise<string> {
  let text = ''
  let offset: number | null = 0
  for (let pages = 0; offset !== null; pages++) {
    if (pages > 100_000) throw new Error('paging never ended')
    const args: Record<string, unknown> = { handle, offset }
    if (limit !== undefined) args.limit = limit
    const result = await ctx.tools.execute(
      call(READ_RESULT_TOOL_NAME, args, agent === undefined ? {} : { agent }),
    )
    if (result.isError) throw new Error(result.error.message)
    const page = result.value as { text: string; nextOffset: number | null }
    text += page.text
    offset = page.nextOffset
  }
  return text
}

describe('config', () => {
  it('rejects invalid budgets with the offending path', () => {
    const validate = ToolRuntime.Config['~standard'].validate
    for (const bad of [
      { resultBudget: {} },
      { resultBudget: { maxContentBytes: 10 } },
      { resultBudget: { maxContentBytes: 1.5e3 + 0.5 } },
      { resultBudget: { maxContentBytes: 4096, perTool: { a: -1 } } },
      { resultBudget: { maxContentBytes: 4096, perTool: [] } },
      { resultBudget: { maxContentBytes: 4096, storeBytes: 0 } },
      { resultBudget: 'big' },
    ]) {
      const checked = validate(bad)
      expect(checked.issues?.[0]?.path?.[0], JSON.stringify(bad)).toBe('resultBudget')
    }
    expect(
      validate({ resultBudget: { maxContentBytes: 4096, perTool: { a: 512 }, storeBytes: 1 } }).issues,
    ).toBeUndefined()
  })

  it('the constructor throws on an invalid budget too', async () => {
    await expect(createRuntime({ resultBudget: { maxContentBytes: -1 } })).rejects.toThrow(/maxContentBytes/)
  })

  it('read_result exists only with a budget, and its name is reserved', async () => {
    const plain = await createRuntime()
    expect(plain.tools.schemas().map((s) => s.name)).not.toContain(READ_RESULT_TOOL_NAME)
    expect(() => plain.tools.register({ ...textTool(READ_RESULT_TOOL_NAME) })).toThrow(/reserved/)
    await plain.fiber.dispose()
    const ctx = await start()
    expect(ctx.tools.assemble().tools.map((tool) => tool.name)).toContain(READ_RESULT_TOOL_NAME)
  })
})

describe('text', () => {
  it('content within the budget is untouched and stores nothing', async () => {
    const ctx = await start()
    ctx.tools.register(textTool())
    const result = await ctx.tools.execute(call('big', { text: 'x'.repeat(BUDGET) }))
    expect(textOf(result)).toBe('x'.repeat(BUDGET))
  })

  it('over the budget: head and tail kept around a marker with bytes, lines and the handle; value untouched', async () => {
    const ctx = await start()
    ctx.tools.register(textTool())
    const lines = Array.from({ length: 500 }, (_, i) => `line ${i}:${'é'.repeat(i % 7)}`)
    const text = lines.join('\n')
    const result = await ctx.tools.execute(call('big', { text }))
    expect(result.isError).toBe(false)
    if (!result.isError) expect(result.value).toBe(text)
    const shown = textOf(result)
    expect(bytes(result)).toBeLessThanOrEqual(BUDGET)
    expect(shown.startsWith('line 0:\nline 1:é\n')).toBe(true)
    expect(shown.endsWith(lines.at(-1)!)).toBe(true)
    const marker = /\[elided (\d+) bytes, (\d+) lines; full result: read_result/.exec(shown)
    expect(marker).not.toBeNull()
    const [head, tail] = shown.split(/\n…\[elided [^\]]*\]…\n/)
    expect(Number(marker![1])).toBe(
      Buffer.byteLength(text) - Buffer.byteLength(head!) - Buffer.byteLength(tail!),
    )
    expect(Number(marker![2])).toBe(
      text.slice(head!.length, text.length - tail!.length).split('\n').length - 1,
    )
    expect(await readAll(ctx, handleOf(result)!)).toBe(text)
  })

  it('per-tool overrides replace the global cap for that tool only', async () => {
    const ctx = await start({ resultBudget: { maxContentBytes: BUDGET, perTool: { roomy: 8192 } } })
    ctx.tools.register(textTool('big'))
    ctx.tools.register(textTool('roomy'))
    const text = 'y'.repeat(6000)
    expect(textOf(await ctx.tools.execute(call('roomy', { text })))).toBe(text)
    const cut = await ctx.tools.execute(call('big', { text }))
    expect(bytes(cut)).toBeLessThanOrEqual(BUDGET)
  })

  it('failures are budgeted too', async () => {
    const ctx = await start()
    ctx.tools.register(
      defineTool({
        name: 'boom',
        description: 'Fails loudly.',
        parameters: {},
        output: { schema: { type: 'string' }, render: (_a, v) => [{ type: 'text', text: v }] },
        execute: () => {
          throw new Error('z'.repeat(50_000))
        },
      }),
    )
    const result = await ctx.tools.execute(call('boom'))
    expect(result.isError).toBe(true)
    expect(bytes(result)).toBeLessThanOrEqual(BUDGET)
    expect(textOf(result).startsWith('Error: zzz')).toBe(true)
    expect(await readAll(ctx, handleOf(result)!)).toBe(`Error: ${'z'.repeat(50_000)}`)
  })
})

describe('JSON', () => {
  it('a JSON document stays parseable: long arrays keep head and tail items around a marker', async () => {
    const ctx = await start()
    ctx.tools.register(textTool())
    const doc = {
      files: Array.from({ length: 2000 }, (_, i) => ({ path: `src/file-${i}.ts`, line: i })),
      total: 2000,
    }
    const result = await ctx.tools.execute(call('big', { text: JSON.stringify(doc) }))
    expect(bytes(result)).toBeLessThanOrEqual(BUDGET)
    const parsed = JSON.parse(textOf(result)) as { files: unknown[]; total: number }
    expect(parsed.total).toBe(2000)
    expect(parsed.files[0]).toEqual({ path: 'src/file-0.ts', line: 0 })
    expect(parsed.files.at(-1)).toEqual({ path: 'src/file-1999.ts', line: 1999 })
    expect(
      parsed.files.some((item) => typeof item === 'string' && /\[elided \d+ items; full result/.test(item)),
    ).toBe(true)
    expect(JSON.parse(await readAll(ctx, handleOf(result)!))).toEqual(doc)
  })

  it('long strings inside JSON are cut inside the string, not mid-token; pretty layout is kept', async () => {
    const ctx = await start()
    ctx.tools.register(textTool())
    const doc = { body: 'a'.repeat(5000) + 'Z'.repeat(5000), id: 7 }
    const result = await ctx.tools.execute(call('big', { text: JSON.stringify(doc, null, 2) }))
    const shown = textOf(result)
    expect(bytes(result)).toBeLessThanOrEqual(BUDGET)
    expect(shown).toContain('\n  "id": 7')
    const parsed = JSON.parse(shown) as typeof doc
    expect(parsed.id).toBe(7)
    expect(parsed.body).toMatch(/^a+…\[elided \d+ chars; full result: read_result handle=res_[\w-]+\]…Z+$/)
  })
})

describe('images', () => {
  it('an image over the budget becomes a text note naming the handle; small text is kept', async () => {
    const ctx = await start()
    ctx.tools.register(
      defineTool({
        name: 'shot',
        description: 'A screenshot.',
        parameters: {},
        output: {
          schema: { type: 'string' },
          render: (_a, data) => [
            { type: 'text', text: 'screenshot:' },
            { type: 'image', mediaType: 'image/png', data },
          ],
        },
        execute: () => 'A'.repeat(10_000),
      }),
    )
    const result = await ctx.tools.execute(call('shot'))
    expect(result.content.map((part) => part.type)).toEqual(['text', 'text'])
    expect(textOf(result)).toMatch(
      /^screenshot:\[elided image image\/png, 10000 bytes of base64; full result: read_result/,
    )
    expect(await readAll(ctx, handleOf(result)!)).toBe(
      `screenshot:\ndata:image/png;base64,${'A'.repeat(10_000)}`,
    )
  })
})

describe('hostile sizes', () => {
  it('tools/result listeners see the cut content, the value stays whole', async () => {
    const ctx = await start()
    ctx.tools.register(textTool())
    const seen: ToolExecutionResult[] = []
    ctx.on('tools/result', (_exec, result) => {
      seen.push(result)
    })
    await ctx.tools.execute(call('big', { text: 'w'.repeat(20_000) }))
    expect(bytes(seen[0]!)).toBeLessThanOrEqual(BUDGET)
    expect(seen[0]!.isError === false && seen[0]!.value).toBe('w'.repeat(20_000))
  })

  it('one 100 MB string is cut, and not kept when it exceeds the store', async () => {
    const ctx = await start({ resultBudget: { maxContentBytes: BUDGET, storeBytes: 1024 * 1024 } })
    const huge = 'h'.repeat(100 * 1024 * 1024)
    ctx.tools.register(
      defineTool({
        name: 'huge',
        description: 'Huge output.',
        parameters: {},
        output: { schema: { type: 'boolean' }, render: () => [{ type: 'text', text: huge }] },
        execute: () => true,
      }),
    )
    const result = await ctx.tools.execute(call('huge'))
    expect(bytes(result)).toBeLessThanOrEqual(BUDGET)
    expect(textOf(result)).toMatch(/full result not kept: 104857600 bytes exceed the result store/)
  })

  it('a million tiny parts become head and tail parts around one marker part', async () => {
    const ctx = await start()
    ctx.tools.register(
      defineTool({
        name: 'many',
        description: 'Many parts.',
        parameters: {},
        output: {
          schema: { type: 'boolean' },
          render: () =>
            Array.from({ length: 1_000_000 }, (_, i) => ({ type: 'text' as const, text: String(i % 10) })),
        },
        execute: () => true,
      }),
    )
    const result = await ctx.tools.execute(call('many'))
    expect(result.content.length).toBe(64)
    expect(textOf(result)).toContain('[elided 999937 content parts, 999937 bytes;')
    expect(bytes(result)).toBeLessThanOrEqual(BUDGET)
  })
})

describe('many parts', () => {
  it('64 large parts whose shares are smaller than a marker still fit: the trailing parts collapse', async () => {
    const ctx = await start()
    ctx.tools.register(
      defineTool({
        name: 'parts',
        description: 'Many large parts.',
        parameters: {},
        output: {
          schema: { type: 'boolean' },
          render: () =>
            Array.from({ length: 64 }, (_, i) => ({
              type: 'text' as const,
              text: `${i}:`.padEnd(10_000, '.'),
            })),
        },
        execute: () => true,
      }),
    )
    const result = await ctx.tools.execute(call('parts'))
    expect(bytes(result)).toBeLessThanOrEqual(BUDGET)
    expect(textOf(result)).toMatch(
      /\[elided \d+ content parts, \d+ bytes; full result: read_result handle=res_/,
    )
    const full = await readAll(ctx, handleOf(result)!)
    expect(full.split('\n').length).toBe(64)
  })

  it('a JSON document nested 100,000 deep is cut without recursing into it', async () => {
    const ctx = await start()
    ctx.tools.register(textTool())
    const text = `${'['.repeat(100_000)}1${']'.repeat(100_000)}`
    const result = await ctx.tools.execute(call('big', { text }))
    expect(bytes(result)).toBeLessThanOrEqual(BUDGET)
    expect(() => JSON.parse(textOf(result))).not.toThrow()
  })
})

describe('the handle store', () => {
  it('evicts least-recently-used results by bytes; an evicted handle says it expired', async () => {
    const ctx = await start({ resultBudget: { maxContentBytes: BUDGET, storeBytes: 25_000 } })
    ctx.tools.register(textTool())
    const first = handleOf(await ctx.tools.execute(call('big', { text: '1'.repeat(10_000) })))!
    const second = handleOf(await ctx.tools.execute(call('big', { text: '2'.repeat(10_000) })))!
    expect(await readAll(ctx, first)).toBe('1'.repeat(10_000)) // touch: `second` is now the oldest
    const third = handleOf(await ctx.tools.execute(call('big', { text: '3'.repeat(10_000) })))!
    const expired = await ctx.tools.execute(call(READ_RESULT_TOOL_NAME, { handle: second }))
    expect(expired.isError && expired.error.message).toMatch(/has expired/)
    expect(await readAll(ctx, first)).toBe('1'.repeat(10_000))
    expect(await readAll(ctx, third)).toBe('3'.repeat(10_000))
    const unknown = await ctx.tools.execute(call(READ_RESULT_TOOL_NAME, { handle: 'res_nope' }))
    expect(unknown.isError && unknown.error.message).toMatch(/not found/)
  })

  it("handles are scoped to the agent: another agent's (or the global) lookup is not found", async () => {
    const ctx = await start()
    ctx.tools.register(textTool())
    const a = createScope(ctx, 'a')
    const mine = await a.ctx.tools.execute(call('big', { text: 'q'.repeat(5000) }))
    const handle = handleOf(mine)!
    expect(await readAll(a.ctx, handle)).toBe('q'.repeat(5000))
    for (const agent of ['b', undefined]) {
      const other = await ctx.tools.execute(
        call(READ_RESULT_TOOL_NAME, { handle }, agent === undefined ? {} : { agent }),
      )
      expect(other.isError && other.error.message).toMatch(/not found/)
    }
  })

  it('read_result rejects negative offsets and pages stay within the budget', async () => {
    const ctx = await start()
    ctx.tools.register(textTool())
    const handle = handleOf(await ctx.tools.execute(call('big', { text: '🙂'.repeat(3000) })))!
    const bad = await ctx.tools.execute(call(READ_RESULT_TOOL_NAME, { handle, offset: -1 }))
    expect(bad.isError && bad.error.info?.code).toBe('INVALID_ARGS')
    const page = await ctx.tools.execute(call(READ_RESULT_TOOL_NAME, { handle }))
    const value = page.isError ? undefined : (page.value as { text: string; nextOffset: number })
    expect(Buffer.byteLength(value!.text)).toBeLessThanOrEqual(BUDGET)
    expect(value!.nextOffset % 2).toBe(0) // never inside a surrogate pair
    expect(await readAll(ctx, handle, undefined, 7)).toBe('🙂'.repeat(3000))
  })
})

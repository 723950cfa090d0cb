// Result handles in the ToolStateStore (SPEC §13.4): texts behind cut results live in the store
// when one is loaded, so handles outlive the runtime that cut them and read from any runtime
// sharing the store; the store failing never loses a result.
import { Context } from '@deepseek-ai/cordis'
import { afterEach, describe, expect, it } from 'vitest'
import ToolRuntime, {
  defineTool,
  MemoryToolStore,
  READ_RESULT_TOOL_NAME,
  type StoredRecordRef,
  StoreUnavailableError,
  type ToolExecutionResult,
  type ToolRuntimeConfig,
  type ToolStateStore,
} from '../src/index'
import { call } from './fixtures/runtime'

const BUDGET = 1024
const BIG = Array.from({ length: 400 }, (_, line) => `line ${line}: ${'x'.repeat(40)}`).join('\n')

const contexts: Context[] = []
afterEach(async () => {
  for (const ctx of contexts.splice(0)) await ctx.fiber.dispose()
})

const textTool = defineTool({
  name: 'big',
  description: 'Returns the text it is given.',
  parameters: { text: { type: 'string', required: true } },
  output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
  execute: (args) => args.text,
})

/** A runtime with the text tool and, when given, `store` provided at `ctx.toolStore`. */
async function runtime(store?: ToolStateStore, budget: Partial<ToolRuntimeConfig['resultBudget']> = {}) {
  const ctx = new Context()
  contexts.push(ctx)
  const config: ToolRuntimeConfig = { resultBudget: { maxContentBytes: BUDGET, ...budget } }
  await ctx.plugin(ToolRuntime, config)
  if (store !== undefined)
    await ctx.plugin({ name: 'shared-store', apply: (c) => c.provide('toolStore', store) })
  ctx.tools.register(textTool)
  return ctx
}

/** A memory store living in its own context, to be shared by several runtimes. */
async function sharedStore(): Promise<MemoryToolStore> {
  const ctx = new Context()
  contexts.push(ctx)
  await ctx.plugin(MemoryToolStore)
  return ctx.get('toolStore') as MemoryToolStore
}

const textOf = (result: ToolExecutionResult) =>
  result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('')
const handleOf = (result: ToolExecutionResult) =>
  /read_result handle=(res_[A-Za-z0-9_-]+)/.exec(textOf(result))?.[1]

async function cut(ctx: Context, agent?: string): Promise<string> {
  const result = await ctx.tools.execute(call('big', { text: BIG }, agent === undefined ? {} : { agent }))
  expect(result.isError).toBe(false)
  const handle = handleOf(result)
  expect(handle, textOf(result)).toBeDefined()
  return handle!
}

async function readAll(ctx: Context, handle: string, agent?: string): Promise<ToolExecutionResult | string> {
  let text = ''
  let offset: number | null = 0
  while (offset !== null) {
    const result = await ctx.tools.execute(
      call(READ_RESULT_TOOL_NAME, { handle, offset }, agent === undefined ? {} : { agent }),
    )
    if (result.isError) return result
    const page = result.value as { text: string; nextOffset: number | null }
    text += page.text
    offset = page.nextOffset
  }
  return text
}

/** A store whose every method rejects, counting the calls it got. */
function brokenStore(label = 'broken-db'): ToolStateStore & { calls: number } {
  const store = {
    label,
    calls: 0,
    fail(): Promise<never> {
      store.calls++
      return Promise.reject(new Error('connection refused'))
    },
    create: () => store.fail(),
    get: () => store.fail(),
    update: () => store.fail(),
    list: () => store.fail(),
    sweep: () => store.fail(),
  }
  return store
}

describe('handles in a shared store', () => {
  it('a handle cut by one runtime reads in full from another runtime sharing the store', async () => {
    const store = await sharedStore()
    const first = await runtime(store)
    const handle = await cut(first, 'agent-a')
    const record = await store.get({ kind: 'result', agent: 'agent-a', key: handle })
    expect(record?.state).toBe('kept')
    const second = await runtime(store)
    expect(await readAll(second, handle, 'agent-a')).toBe(BIG)
  })

  it('the handle outlives the runtime that cut it', async () => {
    const store = await sharedStore()
    const first = await runtime(store)
    const handle = await cut(first)
    await first.fiber.dispose()
    const second = await runtime(store)
    expect(await readAll(second, handle)).toBe(BIG)
  })

  it('another agent, or the global layer, gets "not found", as for a handle that never existed', async () => {
    const store = await sharedStore()
    const first = await runtime(store)
    const handle = await cut(first, 'agent-a')
    const second = await runtime(store)
    const answers: string[] = []
    for (const [agent, asked] of [
      ['agent-b', handle],
      [undefined, handle],
      ['agent-a', 'res_AAAAAAAAAAAAAAAAAAAAAA'],
    ] as const) {
      const result = await readAll(second, asked, agent)
      if (typeof result === 'string') throw new Error(`${agent} read another agent's result`)
      expect(result.isError && result.error.info?.code).toBe('TOOL_FAILED')
      answers.push(result.isError ? result.error.message.replace(asked, '<handle>') : '')
    }
    expect(new Set(answers).size).toBe(1)
    expect(answers[0]).toMatch(/not found/)
  })

  it('agents inside one runtime stay apart too', async () => {
    const store = await sharedStore()
    const ctx = await runtime(store)
    const handle = await cut(ctx, 'agent-a')
    expect(typeof (await readAll(ctx, handle, 'agent-b'))).not.toBe('string')
    expect(await readAll(ctx, handle, 'agent-a')).toBe(BIG)
  })

  it('past ttlMs the handle answers "expired", as an evicted one does', async () => {
    const store = await sharedStore()
    const ctx = await runtime(store, { ttlMs: 1 })
    const handle = await cut(ctx)
    const record = await store.get({ kind: 'result', agent: '', key: handle })
    expect(record!.expiresAt - record!.createdAt).toBe(1)
    // Wait out the ttl on the store's own clock, not by a sleep: poll until the record is past it.
    while (Date.now() <= record!.expiresAt) await new Promise((resolve) => setImmediate(resolve))
    const result = await readAll(ctx, handle)
    expect(typeof result !== 'string' && result.isError && result.error.message).toMatch(/has expired/)
  })

  it('a record kept for the default ttl expires a day later', async () => {
    const store = await sharedStore()
    const ctx = await runtime(store)
    const handle = await cut(ctx)
    const record = await store.get({ kind: 'result', agent: '', key: handle })
    expect(record!.expiresAt - record!.createdAt).toBe(24 * 60 * 60 * 1000)
  })

  it('without a store the texts stay in the process (nothing is written anywhere)', async () => {
    const store = await sharedStore()
    const ctx = await runtime()
    const handle = await cut(ctx)
    expect(await store.list({ kind: 'result' })).toEqual([])
    expect(await readAll(ctx, handle)).toBe(BIG)
  })

  it('a store loaded or disposed at runtime is used from the next cut or read on', async () => {
    const store = await sharedStore()
    const ctx = await runtime()
    const before = await cut(ctx)
    const fiber = await ctx.plugin({ name: 'late-store', apply: (c) => c.provide('toolStore', store) })
    const during = await cut(ctx)
    expect(await store.get({ kind: 'result', agent: '', key: during })).toBeDefined()
    // A handle from before the store was loaded still reads from the process's memory.
    expect(await readAll(ctx, before)).toBe(BIG)
    expect(await readAll(ctx, during)).toBe(BIG)
    await fiber.dispose()
    const after = await cut(ctx)
    expect(await store.get({ kind: 'result', agent: '', key: after })).toBeUndefined()
    expect(await readAll(ctx, after)).toBe(BIG)
  })

  it('a text larger than storeBytes is not written to the store either', async () => {
    const store = await sharedStore()
    const ctx = await runtime(store, { storeBytes: 2000 })
    const result = await ctx.tools.execute(call('big', { text: BIG }))
    expect(textOf(result)).toMatch(/full result not kept: \d+ bytes exceed the result store/)
    expect(await store.list({ kind: 'result' })).toEqual([])
  })
})

describe('an unreachable store', () => {
  it('at cut time the result is still returned, cut, saying the full text could not be kept', async () => {
    const store = brokenStore()
    const ctx = await runtime(store)
    const result = await ctx.tools.execute(call('big', { text: BIG }))
    expect(result.isError).toBe(false)
    expect(!result.isError && result.value).toBe(BIG)
    expect(Buffer.byteLength(textOf(result))).toBeLessThanOrEqual(BUDGET)
    expect(textOf(result)).toMatch(
      /full result not kept: the tool state store "broken-db" could not keep it \(.*connection refused\)/,
    )
    expect(handleOf(result)).toBeUndefined()
    expect(store.calls).toBe(1)
  })

  it('in a batch too, every sibling result arrives', async () => {
    const store = brokenStore()
    const ctx = await runtime(store)
    const results = await ctx.tools.executeBatch([
      call('big', { text: BIG }),
      call('big', { text: 'small' }),
      call('big', { text: BIG }),
    ])
    expect(results.map((result) => result.isError)).toEqual([false, false, false])
    expect(textOf(results[0]!)).toMatch(/full result not kept/)
    expect(textOf(results[1]!)).toBe('small')
  })

  it('at read time read_result ends STORE_UNAVAILABLE naming the store', async () => {
    const store = brokenStore('postgres db.internal/tools')
    const ctx = await runtime(store)
    const result = await ctx.tools.execute(call(READ_RESULT_TOOL_NAME, { handle: 'res_whatever' }))
    expect(result.isError && result.error.info?.code).toBe('STORE_UNAVAILABLE')
    expect(result.isError && result.error.message).toMatch(/postgres db\.internal\/tools/)
  })

  it("a store's own StoreUnavailableError reaches the caller as it is", async () => {
    const store = brokenStore()
    store.get = (ref: StoredRecordRef) =>
      Promise.reject(new StoreUnavailableError(`sqlite /tmp/x.db is locked (reading ${ref.kind})`))
    const ctx = await runtime(store)
    const result = await ctx.tools.execute(call(READ_RESULT_TOOL_NAME, { handle: 'res_whatever' }))
    expect(result.isError && result.error.message).toBe('sqlite /tmp/x.db is locked (reading result)')
  })

  it('a store that never answers does not outlive a disposal: the caller gets ABORTED', async () => {
    const store = brokenStore()
    let writes = 0
    store.create = () => {
      writes++
      return new Promise<never>(() => {})
    }
    const ctx = await runtime(store)
    const pending = ctx.tools.execute(call('big', { text: BIG }))
    while (writes === 0) await new Promise((resolve) => setImmediate(resolve))
    const disposed = ctx.fiber.dispose()
    const result = await pending
    await disposed
    expect(result.isError && result.error.info?.code).toBe('ABORTED')
  })

  it("a caller's abort ends the wait for a store that never answers: the result comes back, cut", async () => {
    const store = brokenStore('stuck-db')
    let writes = 0
    store.create = () => {
      writes++
      return new Promise<never>(() => {})
    }
    const ctx = await runtime(store)
    const controller = new AbortController()
    const pending = ctx.tools.execute(call('big', { text: BIG }, { signal: controller.signal }))
    while (writes === 0) await new Promise((resolve) => setImmediate(resolve))
    controller.abort()
    const result = await pending
    expect(textOf(result)).toMatch(
      /full result not kept: the call was aborted before the tool state store "stuck-db" kept it/,
    )
    expect(handleOf(result)).toBeUndefined()
  })

  it('read_result on a store that never answers ends ABORTED when the caller aborts', async () => {
    const store = brokenStore()
    let reads = 0
    store.get = () => {
      reads++
      return new Promise<never>(() => {})
    }
    const ctx = await runtime(store)
    const controller = new AbortController()
    const pending = ctx.tools.execute(
      call(READ_RESULT_TOOL_NAME, { handle: 'res_whatever' }, { signal: controller.signal }),
    )
    while (reads === 0) await new Promise((resolve) => setImmediate(resolve))
    controller.abort()
    const result = await pending
    expect(result.isError && result.error.info?.code).toBe('ABORTED')
  })

  it('a small result never touches the store', async () => {
    const store = brokenStore()
    const ctx = await runtime(store)
    const result = await ctx.tools.execute(call('big', { text: 'small' }))
    expect(textOf(result)).toBe('small')
    expect(store.calls).toBe(0)
  })
})

describe('config', () => {
  it('rejects a ttlMs that is not a positive integer', () => {
    const validate = ToolRuntime.Config['~standard'].validate
    for (const ttlMs of [0, -1, 1.5, '1000', Number.POSITIVE_INFINITY]) {
      const checked = validate({ resultBudget: { maxContentBytes: 4096, ttlMs } })
      expect(checked.issues?.[0]?.path, String(ttlMs)).toEqual(['resultBudget', 'ttlMs'])
    }
    expect(validate({ resultBudget: { maxContentBytes: 4096, ttlMs: 60_000 } }).issues).toBeUndefined()
  })
})

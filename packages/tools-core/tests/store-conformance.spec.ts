// The memory store passes the store conformance kit (SPEC §13.1), and the kit catches stores
// that break the contract.
import { Context } from '@deepseek-ai/cordis'
import { describe, expect, it } from 'vitest'
import {
  MemoryToolStore,
  type StoreConformanceHarness,
  type StoredRecord,
  storeConformanceCases,
  type ToolStateStore,
} from '../src/index'

/** Every open() hands out the one memory store: the "shared backing data" of a single process. */
async function memoryHarness(): Promise<StoreConformanceHarness> {
  const ctx = new Context()
  await ctx.plugin(MemoryToolStore)
  const store = ctx.toolStore
  return { durable: false, open: async () => ({ store, close: async () => {} }) }
}

describe('MemoryToolStore conformance', async () => {
  const harness = await memoryHarness()
  for (const c of storeConformanceCases(harness)) it(c.name, () => c.run())
})

/** A harness over a store that `wrap` breaks in one way. */
async function brokenHarness(
  wrap: (store: ToolStateStore) => ToolStateStore,
): Promise<StoreConformanceHarness> {
  const inner = await memoryHarness()
  const opened = await inner.open()
  return { durable: false, open: async () => ({ store: wrap(opened.store), close: async () => {} }) }
}

function override(store: ToolStateStore, methods: Partial<ToolStateStore>): ToolStateStore {
  return {
    label: store.label,
    create: (record) => store.create(record),
    get: (ref) => store.get(ref),
    update: (ref, version, change) => store.update(ref, version, change),
    list: (query) => store.list(query),
    sweep: (now) => store.sweep(now),
    ...methods,
  }
}

async function failures(wrap: (store: ToolStateStore) => ToolStateStore): Promise<Map<string, string>> {
  const failed = new Map<string, string>()
  for (const c of storeConformanceCases(await brokenHarness(wrap))) {
    await c.run().catch((error: Error) => failed.set(c.name, error.message))
  }
  return failed
}

const reparsed = (record: StoredRecord | undefined) =>
  record && { ...record, data: JSON.stringify(JSON.parse(record.data === '' ? 'null' : record.data)) }

describe('the kit catches broken stores', () => {
  it('case names are unique', async () => {
    const names = storeConformanceCases(await memoryHarness()).map((c) => c.name)
    expect(new Set(names).size).toBe(names.length)
  })

  it('a store that parses and re-serializes data fails the lossless case', async () => {
    const failed = await failures((store) =>
      override(store, { get: async (ref) => reparsed(await store.get(ref)) }),
    )
    expect([...failed.keys()].join('\n')).toMatch(/byte for byte/)
    expect([...failed.values()].join('\n')).toMatch(
      /store conformance: get returns a 20-digit integer: data changed/,
    )
  })

  it('a store that checks the version and writes in a second step fails the race cases', async () => {
    // Check-then-act: the classic lost update of a read followed by an unconditional write.
    const failed = await failures((store) =>
      override(store, {
        update: async (ref, version, change) => {
          if ((await store.get(ref))?.version !== version) return undefined
          await new Promise((resolve) => setImmediate(resolve))
          const current = await store.get(ref)
          return current && store.update(ref, current.version, change)
        },
      }),
    )
    expect([...failed.keys()]).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/racing claims on one version through two handles: exactly one wins/),
        expect.stringMatching(/expired lease is reclaimed by compare-and-set, by exactly one/),
      ]),
    )
  })

  it('a store whose compare-and-set ignores the version fails the CAS case', async () => {
    const failed = await failures((store) =>
      override(store, {
        update: async (ref, _version, change) => {
          const current = await store.get(ref)
          return current && store.update(ref, current.version, change)
        },
      }),
    )
    expect([...failed.keys()].join('\n')).toMatch(/compare-and-set applies on the expected version only/)
  })

  it('a store that drops a lease it was not asked to clear fails the CAS case', async () => {
    const failed = await failures((store) =>
      override(store, {
        update: (ref, version, change) => store.update(ref, version, { lease: null, ...change }),
      }),
    )
    expect([...failed.keys()].join('\n')).toMatch(/compare-and-set applies on the expected version only/)
  })

  it('a store that ignores the agent fails the isolation case', async () => {
    const failed = await failures((store) =>
      override(store, {
        get: async (ref) => (await store.list({ kind: ref.kind })).find((record) => record.key === ref.key),
      }),
    )
    expect([...failed.keys()].join('\n')).toMatch(/records are per agent/)
  })

  it('a store that sweeps records expiring exactly now fails the sweep case', async () => {
    const failed = await failures((store) => override(store, { sweep: (now) => store.sweep(now + 1) }))
    expect([...failed.keys()].join('\n')).toMatch(/sweep deletes only records/)
  })

  it('a store that lists in insertion order fails the list case', async () => {
    const failed = await failures((store) =>
      override(store, {
        list: async (query) => (await store.list(query)).sort((a, b) => b.createdAt - a.createdAt),
      }),
    )
    expect([...failed.keys()].join('\n')).toMatch(/list filters by kind, agent and state/)
  })

  it('a "durable" store that forgets on reopen fails the durability case', async () => {
    const forgetful: StoreConformanceHarness = {
      durable: true,
      open: async () => (await memoryHarness()).open(),
    }
    const durability = storeConformanceCases(forgetful).find((c) => c.name.includes('survive close()'))
    await expect(durability?.run()).rejects.toThrow(/after reopening: expected a record, got undefined/)
  })

  it('an unreachable store that rejects without naming itself fails the unreachable case', async () => {
    const harness = await memoryHarness()
    const broken = override((await harness.open()).store, {})
    for (const method of ['create', 'get', 'update', 'list', 'sweep'] as const) {
      ;(broken as unknown as Record<string, unknown>)[method] = async () => {
        throw Object.assign(new Error('connection refused'), { code: 'STORE_UNAVAILABLE' })
      }
    }
    const cases = storeConformanceCases({
      ...harness,
      openUnreachable: async () => ({ store: broken, close: async () => {} }),
    })
    const unreachable = cases.find((c) => c.name.includes('unreachable'))
    await expect(unreachable?.run()).rejects.toThrow(/message names the store/)
  })
})

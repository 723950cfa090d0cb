/**
 * Conformance against `@modelcontextprotocol/server-memory` (pinned), a real npm server spawned
 * once over stdio with its knowledge graph in a temp file: every tool registers with its
 * structured output schema, the Code Mode SDK type-checks, each tool works through the
 * pipeline (and really writes the file), bad arguments never reach it, and dispose kills it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Context, Fiber } from '@deepseek-ai/cordis'
import WorkerThreadCodeRuntime from '@dsh/code-runtime-worker-thread'
import * as CodeMode from '@dsh/tools-codemode'
import type { ToolExecutionResult } from '@dsh/tools-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { McpWarning } from '../src/index'
import { call, createApp, isAlive, loadMcp, until } from './fixtures/app'
import { childPids, sdkCode, serverBin, strictDiagnostics } from './fixtures/third-party'

const BIN = serverBin('@modelcontextprotocol/server-memory', 'mcp-server-memory')
const TOOLS = [
  'add_observations',
  'create_entities',
  'create_relations',
  'delete_entities',
  'delete_observations',
  'delete_relations',
  'open_nodes',
  'read_graph',
  'search_nodes',
]

let ctx: Context
let fiber: Fiber
let warnings: McpWarning[]
let pids: number[]
let dir: string
let file: string

const value = (result: ToolExecutionResult) => {
  if (result.isError) throw new Error(`${result.error.info?.code}: ${result.error.message}`)
  return result.value
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dsh-mcp-memory-'))
  file = join(dir, 'graph.jsonl')
  ;({ ctx, warnings } = await createApp('both'))
  await ctx.plugin(WorkerThreadCodeRuntime, { maxConcurrentRuns: 1 })
  await ctx.plugin(CodeMode, {})
  fiber = await loadMcp(ctx, {
    name: 'memory',
    transport: { command: process.execPath, args: [BIN], env: { MEMORY_FILE_PATH: file } },
  })
  pids = childPids(BIN)
})

afterAll(async () => {
  await ctx?.fiber.dispose()
  for (const pid of pids ?? []) if (isAlive(pid)) process.kill(pid, 'SIGKILL')
  rmSync(dir, { recursive: true, force: true })
})

describe('@modelcontextprotocol/server-memory over stdio', () => {
  it('every tool registers with its structured outputSchema; nothing is refused', () => {
    expect(pids).toHaveLength(1)
    const names = ctx.tools.schemas().map((schema) => schema.name)
    expect(names.filter((name) => name.startsWith('memory__')).sort()).toEqual(
      TOOLS.map((t) => `memory__${t}`),
    )
    expect(warnings.filter((warning) => warning.message.startsWith('not registered'))).toEqual([])
    for (const schema of ctx.tools.schemas()) {
      if (schema.name.startsWith('memory__')) expect(schema.outputSchema).toMatchObject({ type: 'object' })
    }
  })

  it('the Code Mode SDK passes tsc --strict, and a wrong argument shape is a type error', () => {
    const code = sdkCode(ctx)
    for (const tool of TOOLS) expect(code).toContain(`memory__${tool}(`)
    const program = [
      code,
      'export async function use(): Promise<string[]> {',
      '  const graph = await tools.memory__read_graph({})',
      '  // @ts-expect-error observations must be string[]',
      '  await tools.memory__create_entities({ entities: [{ name: "a", entityType: "t", observations: [1] }] })',
      '  return graph.entities.map((entity) => entity.name + graph.relations.length)',
      '}',
    ].join('\n')
    expect(strictDiagnostics(program)).toEqual([])
  })

  it('each tool works through ctx.tools.execute with structured values, and the graph file is really written', async () => {
    const entities = [
      { name: 'Ada', entityType: 'person', observations: ['wrote the first program'] },
      { name: 'Engine', entityType: 'machine', observations: ['analytical'] },
    ]
    expect(value(await call(ctx, 'memory__create_entities', { entities }))).toEqual({ entities })
    const relation = { from: 'Ada', to: 'Engine', relationType: 'programmed' }
    expect(value(await call(ctx, 'memory__create_relations', { relations: [relation] }))).toEqual({
      relations: [relation],
    })
    expect(
      value(
        await call(ctx, 'memory__add_observations', {
          observations: [{ entityName: 'Ada', contents: ['born 1815', 'née Byron'] }],
        }),
      ),
    ).toEqual({ results: [{ entityName: 'Ada', addedObservations: ['born 1815', 'née Byron'] }] })
    const onDisk = readFileSync(file, 'utf8')
    expect(onDisk).toContain('"née Byron"')
    expect(onDisk).toContain('"programmed"')
    const found = value(await call(ctx, 'memory__search_nodes', { query: 'analytical' })) as {
      entities: { name: string }[]
    }
    expect(found.entities.map((entity) => entity.name)).toEqual(['Engine'])
    const opened = value(await call(ctx, 'memory__open_nodes', { names: ['Ada', 'Engine'] })) as {
      relations: unknown[]
    }
    expect(opened.relations).toEqual([relation])
    expect(
      value(
        await call(ctx, 'memory__delete_observations', {
          deletions: [{ entityName: 'Ada', observations: ['born 1815'] }],
        }),
      ),
    ).toMatchObject({ success: true })
    expect(value(await call(ctx, 'memory__delete_relations', { relations: [relation] }))).toMatchObject({
      success: true,
    })
    expect(value(await call(ctx, 'memory__delete_entities', { entityNames: ['Engine'] }))).toMatchObject({
      success: true,
    })
    expect(value(await call(ctx, 'memory__read_graph', {}))).toEqual({
      entities: [
        { name: 'Ada', entityType: 'person', observations: ['wrote the first program', 'née Byron'] },
      ],
      relations: [],
    })
  })

  it('invalid arguments are INVALID_ARGS and leave the graph untouched', async () => {
    const before = readFileSync(file, 'utf8')
    const cases: [string, unknown][] = [
      ['memory__create_entities', {}],
      ['memory__create_entities', { entities: [{ name: 'x', entityType: 't' }] }],
      ['memory__create_entities', { entities: [{ name: 'x', entityType: 't', observations: [1] }] }],
      ['memory__create_relations', { relations: [{ from: 'a', to: 'b' }] }],
      ['memory__delete_entities', { entityNames: 'Ada' }],
      ['memory__search_nodes', { query: null }],
    ]
    for (const [name, args] of cases) {
      const result = await call(ctx, name, args)
      expect(result.isError && result.error.info?.code, `${name} ${JSON.stringify(args)}`).toBe(
        'INVALID_ARGS',
      )
    }
    expect(readFileSync(file, 'utf8')).toBe(before)
  })

  it('a run_code program reads what native calls wrote', async () => {
    const program = `
      const graph = await tools.memory__read_graph({})
      const hits = await tools.memory__search_nodes({ query: 'Byron' })
      return { names: graph.entities.map((e) => e.name), hits: hits.entities.length }`
    const out = value(await call(ctx, 'run_code', { code: program, description: 'read the memory graph' }))
    expect((out as { result: unknown }).result).toEqual({ names: ['Ada'], hits: 1 })
  })

  it('dispose leaves no child process (real PID)', async () => {
    const [pid] = pids
    expect(isAlive(pid!)).toBe(true)
    await fiber.dispose()
    await until(() => !isAlive(pid!))
    expect(childPids(BIN)).toEqual([])
  })
})

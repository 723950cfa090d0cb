/**
 * Conformance against a real third-party MCP server from npm: `@modelcontextprotocol/server-everything`
 * (pinned), run once for the whole file over stdio as a child process. Every content type it
 * produces (text, image, resource links, embedded text and blob resources, annotations),
 * structured output, progress from its long-running tool, list_changed after initialization,
 * invalid arguments, the Code Mode SDK and a `run_code` program, and no child left after dispose.
 */
import { gunzipSync } from 'node:zlib'
import type { Context, Fiber } from '@deepseek-ai/cordis'
import WorkerThreadCodeRuntime from '@dsh/code-runtime-worker-thread'
import * as CodeMode from '@dsh/tools-codemode'
import type { ToolExecutionResult, ToolProgressUpdate } from '@dsh/tools-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { McpWarning } from '../src/index'
import { call, createApp, isAlive, loadMcp, until } from './fixtures/app'
import { childPids, sdkCode, serverBin, strictDiagnostics } from './fixtures/third-party'

const BIN = serverBin('@modelcontextprotocol/server-everything', 'mcp-server-everything')

/** The tools server-everything 2026.8.31 offers a client that declares no sampling, elicitation or roots. */
const CALLABLE = [
  'echo',
  'get-annotated-message',
  'get-env',
  'get-resource-links',
  'get-resource-reference',
  'get-structured-content',
  'get-sum',
  'get-tiny-image',
  'gzip-file-as-resource',
  'toggle-simulated-logging',
  'toggle-subscriber-updates',
  'trigger-long-running-operation',
]
/** Registered by the server after initialization (so announced with list_changed); needs MCP tasks. */
const TASK_ONLY = 'simulate-research-query'
const PNG_SIGNATURE = '89504e470d0a1a0a'

let ctx: Context
let fiber: Fiber
let warnings: McpWarning[]
let pids: number[]

const ok = (result: ToolExecutionResult) => {
  if (result.isError) throw new Error(`${result.error.info?.code}: ${result.error.message}`)
  return result
}
type Block = Record<string, unknown> & { type: string }
const blocksOf = (result: ToolExecutionResult) => ok(result).value as Block[]

beforeAll(async () => {
  ;({ ctx, warnings } = await createApp('both'))
  await ctx.plugin(WorkerThreadCodeRuntime, { maxConcurrentRuns: 1 })
  await ctx.plugin(CodeMode, {})
  fiber = await loadMcp(ctx, {
    name: 'ev',
    transport: { command: process.execPath, args: [BIN, 'stdio'] },
    timeoutMs: 20_000,
  })
  // The task-only tool arrives with list_changed after initialization: wait for the re-list.
  await until(() => warnings.some((warning) => warning.tool === TASK_ONLY), 15_000)
  pids = childPids(BIN)
})

afterAll(async () => {
  await ctx?.fiber.dispose()
  for (const pid of pids ?? []) if (isAlive(pid)) process.kill(pid, 'SIGKILL')
})

describe('@modelcontextprotocol/server-everything over stdio', () => {
  it('runs as one real child process of this process', () => {
    expect(pids).toHaveLength(1)
    expect(pids[0]).not.toBe(process.pid)
  })

  it('every tool is registered under the prefix, or reported with its reason', () => {
    const registered = ctx.tools
      .schemas()
      .map((schema) => schema.name)
      .filter((name) => name.startsWith('ev__'))
    expect(registered.sort()).toEqual(CALLABLE.map((name) => `ev__${name}`).sort())
    // Each listing reports it again (the first listing and the list_changed re-listing may both see it).
    const reported = warnings.filter((warning) => warning.message.startsWith('not registered'))
    expect(new Set(reported.map((warning) => warning.tool))).toEqual(new Set([TASK_ONLY]))
    for (const warning of reported) {
      expect(warning.server).toBe('ev')
      expect(warning.message).toMatch(/^not registered: it requires task-augmented execution/)
    }
    // The server offers sampling/elicitation/roots tools only to clients declaring them; we declare none.
    for (const name of ['trigger-sampling-request', 'trigger-elicitation-request', 'get-roots-list'])
      expect(ctx.tools.get(`ev__${name}`)).toBeUndefined()
  })

  it('the Code Mode SDK generated from its schemas passes tsc --strict and types the structured output', () => {
    const code = sdkCode(ctx)
    for (const name of CALLABLE) expect(code).toContain(`ev__${name}`)
    expect(code).toMatch(/temperature: number/)
    // One compilation (they are slow): the SDK, a typed use of a structured result, and a use
    // the types must reject (an unused @ts-expect-error is itself an error).
    const use = [
      code,
      'export async function use(): Promise<number> {',
      '  const weather = await tools["ev__get-structured-content"]({ location: "Chicago" })',
      '  // @ts-expect-error a is a number',
      '  await tools["ev__get-sum"]({ a: "1", b: 2 })',
      '  return weather.temperature + weather.humidity',
      '}',
    ].join('\n')
    expect(strictDiagnostics(use)).toEqual([])
  })

  it('text tools: echo, get-sum, get-env answer through ctx.tools.execute', async () => {
    expect(blocksOf(await call(ctx, 'ev__echo', { message: 'héllo */ "x"' }))).toEqual([
      { type: 'text', text: 'Echo: héllo */ "x"' },
    ])
    const sum = await call(ctx, 'ev__get-sum', { a: 2.5, b: -7 })
    expect(blocksOf(sum)).toEqual([{ type: 'text', text: 'The sum of 2.5 and -7 is -4.5.' }])
    expect(sum.content).toEqual([{ type: 'text', text: 'The sum of 2.5 and -7 is -4.5.' }])
    const env = blocksOf(await call(ctx, 'ev__get-env'))
    expect(JSON.parse(String(env[0]?.text))).toHaveProperty('PATH')
  })

  it('an image block keeps base64 data and mimeType in the value and becomes an image part', async () => {
    const result = ok(await call(ctx, 'ev__get-tiny-image'))
    const image = blocksOf(result).find((block) => block.type === 'image')!
    expect(image.mimeType).toBe('image/png')
    const bytes = Buffer.from(String(image.data), 'base64')
    expect(bytes.subarray(0, 8).toString('hex')).toBe(PNG_SIGNATURE)
    expect(bytes.toString('base64')).toBe(image.data)
    expect(result.content.filter((part) => part.type === 'image')).toEqual([
      { type: 'image', mediaType: 'image/png', data: image.data },
    ])
    expect(result.content.filter((part) => part.type === 'text').length).toBeGreaterThan(0)
  })

  it('content annotations (priority, audience) survive in the value for every message type', async () => {
    const expected = {
      error: { priority: 1, audience: ['user', 'assistant'] },
      success: { priority: 0.7, audience: ['user'] },
      debug: { priority: 0.3, audience: ['assistant'] },
    }
    for (const [messageType, annotations] of Object.entries(expected)) {
      const blocks = blocksOf(
        await call(ctx, 'ev__get-annotated-message', { messageType, includeImage: true }),
      )
      expect(blocks[0]).toMatchObject({ type: 'text', annotations })
      expect(blocks[1]).toMatchObject({
        type: 'image',
        mimeType: 'image/png',
        annotations: { priority: 0.5, audience: ['user'] },
      })
    }
  })

  it('resource links keep uri, name, mimeType and description, and are rendered as lines', async () => {
    const result = ok(await call(ctx, 'ev__get-resource-links', { count: 4 }))
    const links = blocksOf(result).filter((block) => block.type === 'resource_link')
    expect(links).toHaveLength(4)
    for (const link of links) {
      expect(link.uri).toMatch(/^demo:\/\/resource\/dynamic\/(text|blob)\/\d+$/)
      expect(typeof link.name).toBe('string')
      expect(typeof link.mimeType).toBe('string')
    }
    const lines = result.content.filter(
      (part) => part.type === 'text' && part.text.startsWith('[resource link'),
    )
    expect(lines).toHaveLength(4)
    for (const link of links) expect(JSON.stringify(result.content)).toContain(String(link.uri))
  })

  it('embedded resources keep text and base64 blobs losslessly', async () => {
    const text = blocksOf(
      await call(ctx, 'ev__get-resource-reference', { resourceType: 'Text', resourceId: 3 }),
    )
    const textResource = text.find((block) => block.type === 'resource')!.resource as Record<string, string>
    expect(textResource.uri).toBe('demo://resource/dynamic/text/3')
    expect(typeof textResource.text).toBe('string')
    const blob = ok(await call(ctx, 'ev__get-resource-reference', { resourceType: 'Blob', resourceId: 4 }))
    const blobResource = blocksOf(blob).find((block) => block.type === 'resource')!.resource as Record<
      string,
      string
    >
    expect(blobResource.uri).toBe('demo://resource/dynamic/blob/4')
    expect(Buffer.from(blobResource.blob!, 'base64').toString('base64')).toBe(blobResource.blob)
    expect(JSON.stringify(blob.content)).toMatch(
      /\[resource demo:\/\/resource\/dynamic\/blob\/4[^\]]*\] binary, \d+ bytes/,
    )
  })

  it('gzip-file-as-resource: an embedded gzip blob decompresses to the input; a resource link names the session resource', async () => {
    const input = `conformance ${'ünïcode '.repeat(200)}`
    const data = `data:text/plain;base64,${Buffer.from(input).toString('base64')}`
    const inline = blocksOf(
      await call(ctx, 'ev__gzip-file-as-resource', { name: 'inline.txt.gz', data, outputType: 'resource' }),
    )
    const resource = inline.find((block) => block.type === 'resource')!.resource as Record<string, string>
    expect(resource.mimeType).toBe('application/gzip')
    expect(gunzipSync(Buffer.from(resource.blob!, 'base64')).toString('utf8')).toBe(input)
    const linked = blocksOf(await call(ctx, 'ev__gzip-file-as-resource', { name: 'linked.txt.gz', data }))
    expect(linked.find((block) => block.type === 'resource_link')).toMatchObject({
      uri: 'demo://resource/session/linked.txt.gz',
      mimeType: 'application/gzip',
    })
  })

  it('structured output: the value is structuredContent, validated against the server outputSchema', async () => {
    const schema = ctx.tools.schemas().find((s) => s.name === 'ev__get-structured-content')!
    expect(schema.outputSchema).toMatchObject({
      type: 'object',
      properties: { temperature: { type: 'number' } },
    })
    for (const location of ['New York', 'Chicago', 'Los Angeles']) {
      const result = ok(await call(ctx, 'ev__get-structured-content', { location }))
      expect(result.value).toEqual({
        temperature: expect.any(Number),
        conditions: expect.any(String),
        humidity: expect.any(Number),
      })
      // The model sees the server's own content blocks (its JSON text), not our re-rendering.
      expect(result.content).toHaveLength(1)
      expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.value)
    }
  })

  it('server-side toggles (simulated logging and resource updates) start and stop without disturbing calls', async () => {
    for (const name of ['ev__toggle-simulated-logging', 'ev__toggle-subscriber-updates']) {
      const on = blocksOf(await call(ctx, name))
      const off = blocksOf(await call(ctx, name))
      expect(on[0]?.type).toBe('text')
      expect(off[0]?.text).not.toBe(on[0]?.text)
    }
    expect(blocksOf(await call(ctx, 'ev__echo', { message: 'still here' }))[0]?.text).toBe('Echo: still here')
  })

  it('invalid arguments are INVALID_ARGS from the runtime, and never reach policy or the server', async () => {
    let policySaw = 0
    const off = ctx.on('tools/pre-execute', async (_exec, next) => {
      policySaw++
      return next()
    })
    const cases: [string, unknown][] = [
      ['ev__echo', {}],
      ['ev__echo', { message: 42 }],
      ['ev__get-sum', { a: 1 }],
      ['ev__get-sum', { a: '1', b: 2 }],
      ['ev__get-structured-content', { location: 'Paris' }],
      ['ev__get-resource-reference', { resourceType: 'text', resourceId: 1 }],
      ['ev__get-resource-links', { count: 11 }],
      ['ev__get-annotated-message', { messageType: 'info' }],
      ['ev__trigger-long-running-operation', { duration: 'long' }],
      ['ev__echo', 'not an object'],
    ]
    try {
      for (const [name, args] of cases) {
        const result = await call(ctx, name, args)
        expect(result.isError && result.error.info?.code, `${name} ${JSON.stringify(args)}`).toBe(
          'INVALID_ARGS',
        )
      }
      expect(policySaw).toBe(0)
      // The same path with valid arguments does reach policy (the counter works).
      ok(await call(ctx, 'ev__echo', { message: 'valid' }))
      expect(policySaw).toBe(1)
    } finally {
      off()
    }
  })

  it('progress from the long-running tool arrives as tools/progress events for that call, in order', async () => {
    const updates: ToolProgressUpdate[] = []
    const off = ctx.on('tools/progress', (exec, update) => {
      if (exec.callId === 'long-1') updates.push(update)
    })
    try {
      const result = await call(
        ctx,
        'ev__trigger-long-running-operation',
        { duration: 0.2, steps: 4 },
        { callId: 'long-1' },
      )
      expect(blocksOf(result)[0]?.text).toBe(
        'Long running operation completed. Duration: 0.2 seconds, Steps: 4.',
      )
      expect(updates.map((update) => [update.progress, update.total])).toEqual([
        [1, 4],
        [2, 4],
        [3, 4],
        [4, 4],
      ])
    } finally {
      off()
    }
  })

  it('a run_code program calls two server tools through the pipeline (worker-thread runtime)', async () => {
    const subCalls: string[] = []
    const off = ctx.on('tools/result', (exec, result) => {
      if (exec.parent !== undefined)
        subCalls.push(`${exec.name}:${result.isError ? result.error.info?.code : 'ok'}`)
    })
    try {
      const program = `
        const weather = await tools["ev__get-structured-content"]({ location: "Chicago" })
        const sum = await tools["ev__get-sum"]({ a: weather.temperature, b: 1 })
        let bad = ''
        try { await tools["ev__get-sum"]({ a: 'x', b: 1 }) } catch (error) { bad = error.name + ': ' + error.toolName }
        return { temperature: weather.temperature, sum: sum[0].text, bad }`
      const result = ok(
        await call(ctx, 'run_code', { code: program, description: 'two server-everything tools' }),
      )
      const out = (result.value as { result: { temperature: number; sum: string; bad: string } }).result
      expect(out.sum).toBe(`The sum of ${out.temperature} and 1 is ${out.temperature + 1}.`)
      expect(out.bad).toBe('ToolCallError: ev__get-sum')
      expect(subCalls).toEqual([
        'ev__get-structured-content:ok',
        'ev__get-sum:ok',
        'ev__get-sum:INVALID_ARGS',
      ])
    } finally {
      off()
    }
  })

  it('dispose unregisters every tool and leaves no child process (real PID)', async () => {
    const [pid] = pids
    expect(isAlive(pid!)).toBe(true)
    await fiber.dispose()
    await until(() => !isAlive(pid!))
    expect(childPids(BIN)).toEqual([])
    expect(ctx.tools.schemas().filter((schema) => schema.name.startsWith('ev__'))).toEqual([])
  })
})

/**
 * The programs `pnpm test:pack` runs against installed tarballs only, each in the first install
 * whose @dsh packages include every package it `needs`.
 */

const READ_FILE_PROGRAM = `// The seed's read_file example, against the installed tarballs only.
import assert from 'node:assert/strict'
import { readFile, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { Context } from '@deepseek-ai/cordis'
import ToolRuntime, { defineTool } from '@dsh/tools-core'

const ctx = new Context()
await ctx.plugin(ToolRuntime)

ctx.tools.register(defineTool({
  name: 'read_file',
  description: 'Read a file from disk.',
  parameters: {
    path: { type: 'string', required: true, description: 'Absolute file path' },
    offset: { type: 'number' },
    limit: { type: 'number' },
  },
  output: {
    schema: { type: 'string' },
    render: (_args, value) => [{ type: 'text', text: value }],
  },
  async execute(args, exec) {
    return readFile(args.path, { encoding: 'utf8', signal: exec.signal })
  },
}))

const path = fileURLToPath(new URL('./hello.txt', import.meta.url))
await writeFile(path, 'hello from a tarball\\n')
const signal = new AbortController().signal
const ok = await ctx.tools.execute({ callId: 'call-1', name: 'read_file', arguments: { path }, signal })
assert.equal(ok.isError, false)
assert.equal(ok.value, 'hello from a tarball\\n')
assert.deepEqual(ok.content, [{ type: 'text', text: 'hello from a tarball\\n' }])

const bad = await ctx.tools.execute({ callId: 'call-2', name: 'read_file', arguments: { path: 42 }, signal })
assert.equal(bad.isError, true)
assert.equal(bad.error.info?.code, 'INVALID_ARGS')

assert.deepEqual(ctx.tools.schemas().map((schema) => schema.name), ['read_file'])
await ctx.fiber.dispose()
console.log('read_file example: ok (success value, INVALID_ARGS failure, schemas)')
`

const READ_FILE_TYPECHECK = `import { readFile } from 'node:fs/promises'
import { Context } from '@deepseek-ai/cordis'
import ToolRuntime, { defineTool, type ToolExecutionResult } from '@dsh/tools-core'

const ctx = new Context()
await ctx.plugin(ToolRuntime, { mode: 'native' })

const dispose: () => void = ctx.tools.register(defineTool({
  name: 'read_file',
  description: 'Read a file from disk.',
  parameters: {
    path: { type: 'string', required: true, description: 'Absolute file path' },
    offset: { type: 'number' },
    limit: { type: 'number' },
  },
  output: {
    schema: { type: 'string' },
    render: (_args, value) => [{ type: 'text', text: value }],
  },
  async execute(args, exec) {
    const path: string = args.path
    const offset: number | undefined = args.offset
    void offset
    return readFile(path, { encoding: 'utf8', signal: exec.signal })
  },
}))

const result: ToolExecutionResult = await ctx.tools.execute({
  callId: 'c', name: 'read_file', arguments: { path: '/tmp/x' }, signal: new AbortController().signal,
})
if (result.isError) console.log(result.error.message)
dispose()
`

const CODE_MODE_PROGRAM = `// tool-fs + Code Mode + the worker-thread runtime, against the installed tarballs only.
import assert from 'node:assert/strict'
import { writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { Context } from '@deepseek-ai/cordis'
import ToolRuntime from '@dsh/tools-core'
import * as fsTools from '@dsh/tool-fs'
import * as codeMode from '@dsh/tools-codemode'
import CodeRuntime from '@dsh/code-runtime-worker-thread'

const dir = fileURLToPath(new URL('.', import.meta.url))
await writeFile(new URL('./hello.txt', import.meta.url), 'hello from Code Mode\\n')

const ctx = new Context()
await ctx.plugin(ToolRuntime, { mode: 'code' })
await ctx.plugin(fsTools, { roots: [dir] })
await ctx.plugin(CodeRuntime)
await ctx.plugin(codeMode)

const assembly = ctx.tools.assemble()
assert.deepEqual(assembly.tools.map((tool) => tool.name), ['run_code'])
const sdk = assembly.sections.find((section) => section.id === 'tools:sdk')
assert.ok(sdk && sdk.text.includes('read'), 'the SDK section declares the read binding')

const signal = new AbortController().signal
const direct = await ctx.tools.execute({ callId: 'c0', name: 'read', arguments: { file_path: 'hello.txt' }, signal })
assert.equal(direct.isError, true, 'in code mode only run_code is callable directly')

const result = await ctx.tools.execute({
  callId: 'c1',
  name: 'run_code',
  arguments: {
    description: 'read a file through the read binding',
    code: "const file = await tools.read({ file_path: 'hello.txt' }); console.log('read it'); return file",
  },
  signal,
})
const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('')
assert.equal(result.isError, false, text)
assert.ok(text.includes('hello from Code Mode'), text)
assert.ok(text.includes('read it'), text)
await ctx.fiber.dispose()
console.log('Code Mode program: ok (run_code → tools.read through the worker runtime)')
`

// @dsh/tools-store-sqlite: the native binding was built by the install (npm runs its install
// script only when the README line allows it), and a record survives closing and reopening.
const SQLITE_STORE_PROGRAM = `import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { Context } from '@deepseek-ai/cordis'
import SqliteToolStore from '@dsh/tools-store-sqlite'

const path = fileURLToPath(new URL('./tools.db', import.meta.url))
const now = Date.now()
const ref = { kind: 'approval', agent: 'main', key: 'ticket-1' }
const first = new Context()
await first.plugin(SqliteToolStore, { path })
await first.toolStore.create({ ...ref, state: 'pending', data: '{"n":12345678901234567890}', createdAt: now, expiresAt: now + 60_000 })
assert.equal((await first.toolStore.update(ref, 1, { state: 'approved', updatedAt: now }))?.version, 2)
assert.equal(await first.toolStore.update(ref, 1, { state: 'denied', updatedAt: now }), undefined)
await first.fiber.dispose()
const second = new Context()
await second.plugin(SqliteToolStore, { path })
const read = await second.toolStore.get(ref)
assert.equal(read?.state, 'approved')
assert.equal(read?.data, '{"n":12345678901234567890}')
await second.fiber.dispose()
console.log('sqlite store: ok (native binding loaded, compare-and-set, survives reopening)')
`

// @dsh/tools-ai-sdk: an AI SDK loop (ai 7, its own mock model) over the installed registry.
const AI_SDK_PROGRAM = `import assert from 'node:assert/strict'
import { Context } from '@deepseek-ai/cordis'
import { aiSdkToolApproval, aiSdkTools } from '@dsh/tools-ai-sdk'
import ToolRuntime, { defineTool } from '@dsh/tools-core'
import { generateText, stepCountIs } from 'ai'
import { MockLanguageModelV4 } from 'ai/test'

const ctx = new Context()
await ctx.plugin(ToolRuntime)
ctx.tools.register(defineTool({
  name: 'add', description: 'Add two numbers.',
  parameters: { a: { type: 'number', required: true }, b: { type: 'number', required: true } },
  output: { schema: { type: 'number' }, render: (_args, sum) => [{ type: 'text', text: String(sum) }] },
  execute: ({ a, b }) => a + b,
}))
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } }
const model = new MockLanguageModelV4({ doGenerate: [
  { content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'add', input: '{"a":2,"b":3}' }], finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] },
  { content: [{ type: 'text', text: 'five' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] },
] })
const result = await generateText({ model, prompt: '2 + 3?', tools: aiSdkTools(ctx), toolApproval: aiSdkToolApproval(ctx), stopWhen: stepCountIs(3) })
assert.equal(result.text, 'five')
assert.deepEqual(result.steps[0].toolResults[0].output, { status: 'done', value: 5, content: [{ type: 'text', text: '5' }] })
await ctx.fiber.dispose()
console.log('AI SDK loop: ok (generateText → aiSdkTools → the pipeline)')
`

// @dsh/tools-providers: a documented Anthropic tool_use response through the published
// helpers and the real pipeline, without any provider SDK installed.
const PROVIDERS_PROGRAM = `import assert from 'node:assert/strict'
import { Context } from '@deepseek-ai/cordis'
import ToolRuntime, { defineTool } from '@dsh/tools-core'
import { providerCalls, providerResults, providerTools } from '@dsh/tools-providers'

const ctx = new Context()
await ctx.plugin(ToolRuntime)
ctx.tools.register(defineTool({
  name: 'get_weather', description: 'Weather in a city',
  parameters: { location: { type: 'string', required: true } },
  output: { schema: { type: 'string' }, render: (_args, text) => [{ type: 'text', text }] },
  execute: ({ location }) => 'sunny in ' + location,
}))
assert.equal(providerTools(ctx, 'openai-chat')[0].function.strict, true)
const calls = providerCalls('anthropic', { content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { location: 'Paris' } }] })
const results = await ctx.tools.executeBatch(calls.map((call) => ({ ...call, signal: AbortSignal.timeout(10_000) })))
const { messages, pending } = providerResults('anthropic', calls, results)
assert.deepEqual(pending, [])
assert.deepEqual(messages[0].content[0], { type: 'tool_result', tool_use_id: 'toolu_1', is_error: false, content: [{ type: 'text', text: 'sunny in Paris' }] })
await ctx.fiber.dispose()
console.log('providers: ok (tools, calls and results in the published helpers)')
`

/** A program run against an install, and optionally type-checked against its .d.ts files. */
export interface PackProgram {
  readonly file: string
  readonly needs: readonly string[]
  readonly source: string
  readonly typecheck?: string
}

/** Every program test:pack must run; it fails when no install covered one. */
export const PACK_PROGRAMS: readonly PackProgram[] = [
  {
    file: 'read-file.mjs',
    needs: ['@dsh/tools-core', '@dsh/tools-schema'],
    source: READ_FILE_PROGRAM,
    typecheck: READ_FILE_TYPECHECK,
  },
  {
    file: 'code-mode.mjs',
    needs: [
      '@dsh/code-runtime-worker-thread',
      '@dsh/tool-fs',
      '@dsh/tools-codemode',
      '@dsh/tools-core',
      '@dsh/tools-schema',
    ],
    source: CODE_MODE_PROGRAM,
    // the same program, type-checked against the published .d.ts of all five packages
    typecheck: CODE_MODE_PROGRAM,
  },
  {
    file: 'sqlite-store.mjs',
    needs: ['@dsh/tools-core', '@dsh/tools-schema', '@dsh/tools-store-sqlite'],
    source: SQLITE_STORE_PROGRAM,
  },
  {
    file: 'ai-sdk.mjs',
    needs: ['@dsh/tools-ai-sdk', '@dsh/tools-core', '@dsh/tools-schema'],
    source: AI_SDK_PROGRAM,
  },
  {
    file: 'providers.mjs',
    needs: ['@dsh/tools-core', '@dsh/tools-schema', '@dsh/tools-providers'],
    source: PROVIDERS_PROGRAM,
  },
]

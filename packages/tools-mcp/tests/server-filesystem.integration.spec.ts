/**
 * Conformance against `@modelcontextprotocol/server-filesystem` (pinned), a real npm server
 * spawned once over stdio and confined to a temp dir: every tool registers (zod-generated
 * draft-07 schemas with enums, defaults, minItems), descriptions intact, trusted annotations
 * (read-only tools parallel, destructive ones through the approval service), the model sees the
 * server's content blocks (file text, an image, audio, an embedded binary) while the value is
 * `structuredContent`, server refusals are TOOL_FAILED, invalid arguments never reach it, Code
 * Mode, and dispose leaves no child process.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
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

const BIN = serverBin('@modelcontextprotocol/server-filesystem', 'mcp-server-filesystem')
const TOOLS = [
  'create_directory',
  'directory_tree',
  'edit_file',
  'get_file_info',
  'list_allowed_directories',
  'list_directory',
  'list_directory_with_sizes',
  'move_file',
  'read_file',
  'read_media_file',
  'read_multiple_files',
  'read_text_file',
  'search_files',
  'write_file',
]
const READ_ONLY = TOOLS.filter(
  (tool) => !['create_directory', 'edit_file', 'move_file', 'write_file'].includes(tool),
)
/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='

let ctx: Context
let fiber: Fiber
let warnings: McpWarning[]
let pids: number[]
let dir: string
const asked: string[] = []

const ok = (result: ToolExecutionResult) => {
  if (result.isError) throw new Error(`${result.error.info?.code}: ${result.error.message}`)
  return result
}
const codeOf = (result: ToolExecutionResult) => (result.isError ? result.error.info?.code : 'ok')

beforeAll(async () => {
  // The server resolves symlinks (macOS /tmp, …): name the dir as it will.
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'dsh-mcp-fs-')))
  writeFileSync(join(dir, 'notes.txt'), 'first line\nsecond "line" */\n')
  writeFileSync(join(dir, 'dot.png'), Buffer.from(PNG, 'base64'))
  writeFileSync(join(dir, 'beep.wav'), Buffer.from('RIFF....WAVEfmt ', 'latin1'))
  writeFileSync(join(dir, 'blob.bin'), Buffer.from([0, 1, 2, 255]))
  ;({ ctx, warnings } = await createApp('both'))
  await ctx.plugin(WorkerThreadCodeRuntime, { maxConcurrentRuns: 1 })
  await ctx.plugin(CodeMode, {})
  await ctx.plugin({
    name: 'approve-writes',
    apply: (child: Context) => {
      child.provide('approval', {
        request: async (exec: { name: string }) => {
          asked.push(exec.name)
          return { approved: exec.name !== 'fs__move_file' }
        },
      })
    },
  })
  fiber = await loadMcp(ctx, {
    name: 'fs',
    transport: { command: process.execPath, args: [BIN, dir] },
    trustAnnotations: true,
    timeoutMs: 20_000,
  })
  pids = childPids(BIN)
})

afterAll(async () => {
  await ctx?.fiber.dispose()
  for (const pid of pids ?? []) if (isAlive(pid)) process.kill(pid, 'SIGKILL')
  rmSync(dir, { recursive: true, force: true })
})

describe('@modelcontextprotocol/server-filesystem over stdio', () => {
  it('every tool registers under the prefix with its description, schemas accepted, nothing refused', () => {
    expect(pids).toHaveLength(1)
    const schemas = ctx.tools.schemas().filter((schema) => schema.name.startsWith('fs__'))
    expect(schemas.map((schema) => schema.name).sort()).toEqual(TOOLS.map((tool) => `fs__${tool}`))
    expect(warnings.filter((warning) => warning.message.startsWith('not registered'))).toEqual([])
    for (const schema of schemas) {
      expect(schema.name).toMatch(/^[A-Za-z0-9_-]{1,64}$/)
      expect(schema.description.length).toBeGreaterThan(20)
      expect(schema.description).not.toContain('truncated')
      expect(schema.outputSchema).toMatchObject({ type: 'object' })
    }
    expect(ctx.tools.get('fs__read_media_file')?.description).toMatch(
      /^Read a file and return it as a base64-encoded content block with its MIME type\. /,
    )
  })

  it('trusted annotations: read-only tools run in parallel, destructive ones ask the approval service', async () => {
    const mode = (name: string, args: object) =>
      ctx.tools.executionMode({ callId: 'm', name, arguments: args, signal: new AbortController().signal })
    for (const tool of READ_ONLY) {
      const only =
        tool === 'list_allowed_directories'
          ? {}
          : tool === 'read_multiple_files'
            ? { paths: [dir] }
            : tool === 'search_files'
              ? { path: dir, pattern: '*' }
              : { path: dir }
      expect(mode(`fs__${tool}`, only), tool).toBe('parallel')
    }
    expect(mode('fs__write_file', { path: dir, content: '' })).toBe('exclusive')
    asked.length = 0
    const target = join(dir, 'written.txt')
    ok(await call(ctx, 'fs__write_file', { path: target, content: 'über\n' }))
    expect(readFileSync(target, 'utf8')).toBe('über\n')
    const moved = await call(ctx, 'fs__move_file', { source: target, destination: join(dir, 'moved.txt') })
    expect(codeOf(moved)).toBe('DENIED')
    expect(readFileSync(target, 'utf8')).toBe('über\n')
    ok(await call(ctx, 'fs__read_text_file', { path: target }))
    expect(asked).toEqual(['fs__write_file', 'fs__move_file'])
  })

  it('a text file: the value is structuredContent, the model sees the file text itself', async () => {
    const result = ok(await call(ctx, 'fs__read_text_file', { path: join(dir, 'notes.txt') }))
    expect(result.value).toEqual({ content: 'first line\nsecond "line" */\n' })
    expect(result.content).toEqual([{ type: 'text', text: 'first line\nsecond "line" */\n' }])
    const head = ok(await call(ctx, 'fs__read_text_file', { path: join(dir, 'notes.txt'), head: 1 }))
    expect(head.value).toEqual({ content: 'first line' })
  })

  it('read_media_file: an image part, an audio line and an embedded binary, with the blocks as the value', async () => {
    const image = ok(await call(ctx, 'fs__read_media_file', { path: join(dir, 'dot.png') }))
    expect(image.value).toEqual({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] })
    expect(image.content).toEqual([{ type: 'image', mediaType: 'image/png', data: PNG }])
    const audio = ok(await call(ctx, 'fs__read_media_file', { path: join(dir, 'beep.wav') }))
    expect(audio.value).toMatchObject({ content: [{ type: 'audio', mimeType: 'audio/wav' }] })
    expect(audio.content).toEqual([{ type: 'text', text: '[audio audio/wav, 16 bytes]' }])
    const blob = ok(await call(ctx, 'fs__read_media_file', { path: join(dir, 'blob.bin') }))
    expect(blob.value).toEqual({
      content: [
        {
          type: 'resource',
          resource: { uri: `file://${dir}/blob.bin`, mimeType: 'application/octet-stream', blob: 'AAEC/w==' },
        },
      ],
    })
    expect(blob.content).toEqual([
      { type: 'text', text: `[resource file://${dir}/blob.bin (application/octet-stream)] binary, 4 bytes` },
    ])
  })

  it('edits, listings and searches answer through the pipeline', async () => {
    const file = join(dir, 'notes.txt')
    const diff = ok(
      await call(ctx, 'fs__edit_file', {
        path: file,
        edits: [{ oldText: 'first line', newText: 'FIRST' }],
        dryRun: true,
      }),
    )
    expect((diff.value as { content: string }).content).toContain('+FIRST')
    expect(readFileSync(file, 'utf8')).toBe('first line\nsecond "line" */\n')
    const listing = ok(await call(ctx, 'fs__list_directory', { path: dir }))
    expect((listing.value as { content: string }).content).toContain('[FILE] notes.txt')
    const found = ok(await call(ctx, 'fs__search_files', { path: dir, pattern: '*.png' }))
    expect((found.value as { content: string }).content).toBe(join(dir, 'dot.png'))
    const tree = ok(await call(ctx, 'fs__directory_tree', { path: dir, excludePatterns: ['*.bin'] }))
    const names = JSON.parse((tree.value as { content: string }).content).map((e: { name: string }) => e.name)
    expect(names).toContain('notes.txt')
    expect(names).not.toContain('blob.bin')
  })

  it('server refusals are TOOL_FAILED naming the server with its text; the session stays', async () => {
    const outside = await call(ctx, 'fs__read_text_file', { path: '/etc/hostname' })
    expect(codeOf(outside)).toBe('TOOL_FAILED')
    expect(outside.isError && outside.error.message).toMatch(
      /^MCP tool "read_text_file" on server "fs" failed: .*Access denied/,
    )
    const missing = await call(ctx, 'fs__get_file_info', { path: join(dir, 'nope') })
    expect(codeOf(missing)).toBe('TOOL_FAILED')
    expect(missing.isError && missing.error.message).toContain('ENOENT')
    expect(childPids(BIN)).toEqual(pids)
    ok(await call(ctx, 'fs__list_allowed_directories', {}))
  })

  it('an answer over the stdio message limit (10 MB) is TOOL_FAILED saying so; the next call gets a new child', async () => {
    // 8 MiB of file is ≈ 11 MB of base64 in one JSON-RPC line.
    writeFileSync(join(dir, 'huge.png'), Buffer.alloc(8 * 1024 * 1024, 7))
    const [before] = childPids(BIN)
    const huge = await call(ctx, 'fs__read_media_file', { path: join(dir, 'huge.png') })
    expect(codeOf(huge)).toBe('TOOL_FAILED')
    expect(huge.isError && huge.error.message).toMatch(
      /^MCP server "fs" crashed or disconnected during tools\/call "read_media_file": .*\(transport error: ReadBuffer exceeded maximum size of 10485760 bytes\)/,
    )
    rmSync(join(dir, 'huge.png'))
    ok(await call(ctx, 'fs__list_allowed_directories', {}))
    pids = childPids(BIN)
    expect(pids).toHaveLength(1)
    expect(pids[0]).not.toBe(before)
  })

  it('invalid arguments are INVALID_ARGS and never reach policy or the server', async () => {
    let policySaw = 0
    const off = ctx.on('tools/pre-execute', async (_exec, next) => {
      policySaw++
      return next()
    })
    try {
      const cases: [string, unknown][] = [
        ['fs__read_text_file', {}],
        ['fs__read_text_file', { path: 7 }],
        ['fs__read_multiple_files', { paths: [] }],
        ['fs__list_directory_with_sizes', { path: dir, sortBy: 'date' }],
        ['fs__edit_file', { path: dir, edits: [{ oldText: 'a' }] }],
        ['fs__write_file', { path: join(dir, 'never.txt') }],
      ]
      for (const [name, args] of cases) {
        expect(codeOf(await call(ctx, name, args)), `${name} ${JSON.stringify(args)}`).toBe('INVALID_ARGS')
      }
      expect(policySaw).toBe(0)
      expect(() => readFileSync(join(dir, 'never.txt'))).toThrow(/ENOENT/)
    } finally {
      off()
    }
  })

  it('Code Mode: the SDK passes tsc --strict and a run_code program reads files through the pipeline', async () => {
    const code = sdkCode(ctx)
    const use = [
      code,
      'export async function use(): Promise<string> {',
      '  const text = await tools.fs__read_text_file({ path: "/x" })',
      '  // @ts-expect-error sortBy is "name" | "size"',
      '  await tools.fs__list_directory_with_sizes({ path: "/x", sortBy: "date" })',
      '  return text.content',
      '}',
    ].join('\n')
    expect(strictDiagnostics(use)).toEqual([])
    const program = `
      const listing = await tools.fs__list_directory({ path: ${JSON.stringify(dir)} })
      const text = await tools.fs__read_text_file({ path: ${JSON.stringify(join(dir, 'notes.txt'))} })
      const media = await tools.fs__read_media_file({ path: ${JSON.stringify(join(dir, 'dot.png'))} })
      return { files: listing.content.includes('[FILE] notes.txt'), first: text.content.split('\\n')[0], kind: media.content[0].type }`
    const result = ok(await call(ctx, 'run_code', { code: program, description: 'read a dir' }))
    expect((result.value as { result: unknown }).result).toEqual({
      files: true,
      first: 'first line',
      kind: 'image',
    })
  })

  it('dispose unregisters every tool and leaves no child process (real PID)', async () => {
    const [pid] = pids
    expect(isAlive(pid!)).toBe(true)
    await fiber.dispose()
    await until(() => !isAlive(pid!))
    expect(childPids(BIN)).toEqual([])
    expect(ctx.tools.schemas().filter((schema) => schema.name.startsWith('fs__'))).toEqual([])
  })
})

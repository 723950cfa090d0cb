import { Context } from '@deepseek-ai/cordis'
import { createPyRenderContext } from '@dsh/tools-schema'
import { describe, expect, it } from 'vitest'
import ToolRuntime, {
  checkGeminiSchema,
  checkOpenAiStrictSchema,
  type JsonValue,
  jsonSchemaToPy,
  jsonSchemaToTs,
  type ObjectJsonSchema,
  toProviderSchema,
} from '../src/index'
import { pythonCompileError, typeScriptDiagnostics } from './fixtures/compile-sdk'
import { canonicalSchema, loadCorpus } from './fixtures/real-schema-corpus'
import { call } from './fixtures/runtime'

const corpus = loadCorpus()
// Every entry is exercised: the full JSON Schema gate accepts all of them.
const ready = corpus
const toolName = (name: string) => name.replaceAll('.', '__')

describe('real tool schema corpus', () => {
  it('holds at least 50 entries, each with a source, a license note and 2+ labelled examples each way', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(50)
    for (const entry of corpus) {
      expect(entry.license.length, entry.name).toBeGreaterThan(0)
      expect('url' in entry.source || entry.source.repository.length > 0, entry.name).toBe(true)
      expect(entry.valid.length, entry.name).toBeGreaterThanOrEqual(2)
      expect(entry.invalid.length, entry.name).toBeGreaterThanOrEqual(2)
    }
  })

  it('every entry says whether its schema was re-read against a stored copy of its source', () => {
    const statuses = new Map<string, number>()
    for (const entry of corpus) {
      const { status, read, note } = entry.provenance
      statuses.set(status, (statuses.get(status) ?? 0) + 1)
      expect(['matches', 'corrected', 'not-re-read'], entry.name).toContain(status)
      expect(read.length, entry.name).toBeGreaterThan(0)
      // a correction or a missing copy is explained; a re-read repository source names its commit
      if (status !== 'matches') expect(note?.length ?? 0, entry.name).toBeGreaterThan(0)
      if ('repository' in entry.source && status !== 'not-re-read') {
        expect(entry.source.commit, entry.name).toMatch(/^[0-9a-f]{40}$/)
        expect(read, entry.name).toContain(entry.source.commit)
      }
    }
    // most of the corpus must be checked against its source, not taken on trust
    expect(statuses.get('not-re-read') ?? 0).toBeLessThanOrEqual(corpus.length / 10)
  })

  it('every entry converts to each provider dialect and passes that provider checker', () => {
    for (const entry of corpus) {
      const schema = canonicalSchema(entry)
      const strict = toProviderSchema(schema, 'openai-strict').schema
      expect(checkOpenAiStrictSchema(strict), `${entry.name} (openai-strict)`).toEqual([])
      const gemini = toProviderSchema(schema, 'gemini').schema
      expect(checkGeminiSchema(gemini), `${entry.name} (gemini)`).toEqual([])
      expect(toProviderSchema(schema, 'json-schema').schema).toEqual(schema)
    }
  })

  it('every entry registers, and its labelled arguments validate as labelled', async () => {
    const ctx = new Context()
    await ctx.plugin(ToolRuntime, {})
    for (const entry of ready) {
      ctx.tools.register({
        name: toolName(entry.name),
        description: entry.name,
        parameters: canonicalSchema(entry) as unknown as ObjectJsonSchema,
        output: { schema: {}, render: () => [{ type: 'text', text: 'ok' }] },
        execute: () => null,
      })
    }
    for (const entry of ready) {
      for (const args of entry.valid) {
        const result = await ctx.tools.execute(call(toolName(entry.name), args))
        expect(
          result.isError ? result.error.message : 'ok',
          `${entry.name} valid ${JSON.stringify(args)}`,
        ).toBe('ok')
      }
      for (const args of entry.invalid) {
        const result = await ctx.tools.execute(call(toolName(entry.name), args))
        expect(
          result.isError && result.error.info?.code,
          `${entry.name} invalid ${JSON.stringify(args)}`,
        ).toBe('INVALID_ARGS')
      }
    }
  })

  it('every entry renders to TypeScript that passes tsc --strict and Python that compiles', () => {
    const ts = ready.map(
      (entry, index) => `export type Args${index} = ${jsonSchemaToTs(canonicalSchema(entry))}`,
    )
    const usage = ready.map((_, index) => `export const probe${index} = (value: Args${index}) => value`)
    const prelude =
      'type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue }'
    expect(typeScriptDiagnostics([prelude, ...ts, ...usage].join('\n'))).toEqual([])
    const py = createPyRenderContext()
    const aliases = ready.map(
      (entry, index) =>
        `Args${index} = ${jsonSchemaToPy(canonicalSchema(entry) as JsonValue, py.named(toolName(entry.name)))}`,
    )
    const header = 'from typing import Any, Literal, NotRequired, TypedDict, Union'
    expect(pythonCompileError([header, py.declarations(), ...aliases].join('\n\n'))).toBeUndefined()
  })
})

// `tsc --strict` in the suite: tests/fixtures/sdk-types.ts assigns the helpers' outputs to the
// official SDKs' request types and the SDKs' response types to the helpers' inputs. Compiled
// here with the TypeScript compiler API under the package's tsconfig (strict,
// exactOptionalPropertyTypes), plus snippets that must NOT compile, so the check is known live.
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const CONFIG = fileURLToPath(new URL('../tsconfig.json', import.meta.url))
const FILE = fileURLToPath(new URL('./fixtures/sdk-types.ts', import.meta.url))
const HERE = fileURLToPath(new URL('./fixtures/', import.meta.url))

/** Snippets that the SDK types must refuse (name → body, next to the fixture). */
const MUST_FAIL: Record<string, string> = {
  // why Chat images go in a user message: a tool message takes text parts only
  chatToolImage: `import type OpenAI from 'openai'
export const m: OpenAI.Chat.Completions.ChatCompletionToolMessageParam = {
  role: 'tool', tool_call_id: 'c', content: [{ type: 'image_url', image_url: { url: 'data:' } }],
}`,
  // a wrong shape of ours would be caught: Anthropic needs tool_use_id, not call_id
  anthropicWrongKey: `import type Anthropic from '@anthropic-ai/sdk'
export const b: Anthropic.Messages.ToolResultBlockParam = { type: 'tool_result', call_id: 'c' }`,
}

function compile(): Map<string, string[]> {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    CONFIG,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'))
      },
    },
  )!
  expect(parsed.options.strict).toBe(true)
  const virtual = new Map(
    Object.entries(MUST_FAIL).map(([name, body]) => [`${HERE}${name}.virtual.ts`, body]),
  )
  const host = ts.createCompilerHost(parsed.options)
  const { getSourceFile, fileExists, readFile } = host
  host.fileExists = (file) => virtual.has(file) || fileExists.call(host, file)
  host.readFile = (file) => virtual.get(file) ?? readFile.call(host, file)
  host.getSourceFile = (file, language, ...rest) => {
    const text = virtual.get(file)
    return text === undefined
      ? getSourceFile.call(host, file, language, ...rest)
      : ts.createSourceFile(file, text, language, true)
  }
  const program = ts.createProgram({ rootNames: [FILE, ...virtual.keys()], options: parsed.options, host })
  const text = (d: ts.Diagnostic) => ts.flattenDiagnosticMessageText(d.messageText, '\n')
  const out = new Map<string, string[]>()
  out.set('sdk-types', [...ts.getPreEmitDiagnostics(program, program.getSourceFile(FILE))].map(text))
  for (const [file] of virtual) {
    const name = file.slice(HERE.length, -'.virtual.ts'.length)
    out.set(name, [...program.getSemanticDiagnostics(program.getSourceFile(file))].map(text))
  }
  return out
}

describe('typed against the official SDKs', { timeout: 120_000 }, () => {
  it('outputs assign to openai, @anthropic-ai/sdk and @google/genai request types; their responses to our inputs', () => {
    const diagnostics = compile()
    expect(diagnostics.get('sdk-types')).toEqual([])
    for (const name of Object.keys(MUST_FAIL)) {
      expect(diagnostics.get(name)!.length, `${name} must not compile`).toBeGreaterThan(0)
    }
  })
})

// The TypeScript errors of common DSL mistakes in `defineTool` (issue 22): a nested object spec
// without `additionalProperties` must give one short error that names the fix, never TS2589
// ("excessively deep"). Compiled here with the TypeScript compiler API on in-memory snippets;
// the valid forms are also pinned by `tsc` over this file (the @ts-expect-error lines below).
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { defineTool, type MissingAdditionalProperties } from '../src/index'

const HERE = fileURLToPath(new URL('.', import.meta.url))
const CONFIG = fileURLToPath(new URL('../tsconfig.json', import.meta.url))
const MESSAGE: MissingAdditionalProperties = 'object specs need additionalProperties: false (or true)'

const PRELUDE = `import { defineTool } from '../src/index'
const render = (_a: unknown, v: unknown) => [{ type: 'text' as const, text: String(v) }]
`

/** In-memory snippets (next to this file, so `../src/index` resolves): name → body. */
const SNIPPETS: Record<string, string> = {
  nestedParameter: `export const t = defineTool({
  name: 'x', description: 'x',
  parameters: { where: { type: 'object', properties: { city: { type: 'string', required: true } } } },
  output: { schema: { type: 'string' }, render: (_a, v) => [{ type: 'text', text: v }] },
  execute: (args) => String(args.where),
})`,
  deepInArray: `export const t = defineTool({
  name: 'x', description: 'x',
  parameters: { w: { type: 'object', additionalProperties: false, properties: {
    list: { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } } } } },
  output: { schema: { type: 'string' }, render },
  execute: () => 'x',
})`,
  inAnyOf: `export const t = defineTool({
  name: 'x', description: 'x',
  parameters: { w: { anyOf: [{ type: 'null' }, { type: 'object', properties: { a: { type: 'string' } } }] } },
  output: { schema: { type: 'string' }, render },
  execute: () => 'x',
})`,
  validAnyOf: `export const t = defineTool({
  name: 'x', description: 'x',
  parameters: { w: { required: true, anyOf: [{ type: 'string', format: 'uri' }, { type: 'integer', minimum: 1 }] } },
  output: { schema: { type: 'string' }, render },
  execute: (args) => {
    const w: string | number = args.w
    // @ts-expect-error the union is string | number, not boolean
    const b: boolean = args.w
    return String(w) + String(b)
  },
})`,
  outputSchema: `export const t = defineTool({
  name: 'x', description: 'x', parameters: {},
  output: { schema: { type: 'object', properties: { a: { type: 'string' } } }, render },
  execute: () => ({ a: 'x' }),
})`,
  jsonSchemaOutput: `export const t = defineTool({
  name: 'x', description: 'x',
  parameters: { where: { oneOf: [{ type: 'null' }, { type: 'object' }] } },
  output: { jsonSchema: {}, render },
  execute: () => null,
})`,
  wideSpec: `import type { ParameterSchemaSpec } from '../src/index'
export function make(parameters: ParameterSchemaSpec) {
  return defineTool({
    name: 'x', description: 'x', parameters,
    output: { schema: { type: 'string' }, render: (_a, v) => [{ type: 'text', text: v }] },
    execute: (args) => JSON.stringify(args),
  })
}`,
  valid: `export const t = defineTool({
  name: 'x', description: 'x',
  parameters: { where: { type: 'object', additionalProperties: false,
    properties: { city: { type: 'string', required: true, minLength: 1 } } } },
  output: { schema: { type: 'object', additionalProperties: true }, render },
  execute: (args) => ({ city: args.where?.city ?? '' }),
})`,
}

function diagnostics(): Map<string, ts.Diagnostic[]> {
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
  const files = new Map(
    Object.entries(SNIPPETS).map(([name, body]) => [`${HERE}${name}.virtual.ts`, PRELUDE + body]),
  )
  const host = ts.createCompilerHost(parsed.options)
  const { getSourceFile, fileExists, readFile } = host
  host.fileExists = (file) => files.has(file) || fileExists.call(host, file)
  host.readFile = (file) => files.get(file) ?? readFile.call(host, file)
  host.getSourceFile = (file, language, ...rest) => {
    const text = files.get(file)
    return text === undefined
      ? getSourceFile.call(host, file, language, ...rest)
      : ts.createSourceFile(file, text, language, true)
  }
  const program = ts.createProgram({ rootNames: [...files.keys()], options: parsed.options, host })
  const out = new Map<string, ts.Diagnostic[]>()
  for (const [file] of files) {
    const name = file.slice(HERE.length, -'.virtual.ts'.length)
    out.set(name, [...program.getSemanticDiagnostics(program.getSourceFile(file))])
  }
  return out
}

const text = (d: ts.Diagnostic) => ts.flattenDiagnosticMessageText(d.messageText, '\n')

describe('defineTool type errors', { timeout: 120_000 }, () => {
  it('a nested object spec without additionalProperties: one short error naming the fix, no TS2589', () => {
    const all = diagnostics()
    for (const name of ['nestedParameter', 'deepInArray', 'inAnyOf', 'outputSchema']) {
      const found = all.get(name)!
      expect(
        found.map((d) => d.code),
        `${name}: ${found.map(text).join('\n---\n')}`,
      ).toEqual([2769])
      const message = text(found[0]!)
      expect(message, name).toContain(MESSAGE)
      expect(message, name).toContain("Property 'additionalProperties' is missing")
      // Short: the fix is named within the first few lines, not eight levels deep.
      expect(message.split('\n').length, `${name}:\n${message}`).toBeLessThanOrEqual(5)
    }
    // The raw-output form is checked against the DSL overload (declared last, since TypeScript
    // reports the last one): its error names the fix first, and there is still no TS2589.
    const raw = all.get('jsonSchemaOutput')!
    expect(raw.length).toBeGreaterThan(0)
    expect(raw.every((d) => d.code === 2769)).toBe(true)
    expect(text(raw[0]!).split('\n').slice(0, 5).join('\n')).toContain(MESSAGE)
    expect(all.get('valid')).toEqual([])
    expect(all.get('validAnyOf')!.map(text)).toEqual([])
    // A spec known only at run time (the wide type) compiles, without TS2589.
    expect(all.get('wideSpec')!.map(text)).toEqual([])
  })

  it('the same mistake is a @ts-expect-error here and a definition error at run time', () => {
    expect(() =>
      defineTool({
        name: 'x',
        description: 'x',
        // @ts-expect-error object specs need additionalProperties: false (or true)
        parameters: { where: { type: 'object', properties: { city: { type: 'string' } } } },
        output: { schema: { type: 'string' }, render: (_a, v) => [{ type: 'text', text: v }] },
        execute: () => 'x',
      }),
    ).toThrow('$.where.additionalProperties: explicit object specs must declare additionalProperties')
  })
})

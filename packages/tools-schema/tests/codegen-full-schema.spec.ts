import { spawnSync } from 'node:child_process'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import {
  compileJsonSchemaValidator,
  createPyRenderContext,
  createTsRenderContext,
  type JsonSchemaNode,
  jsonSchemaToPy,
  jsonSchemaToTs,
} from '../src/index'
import { fullSchemas } from './fixtures/full-schemas'
import { STACK_SAFE_DEPTH } from './fixtures/stack-depth'

const JSON_VALUE =
  'type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };\n'
const PY_HEADER =
  'from __future__ import annotations\nfrom typing import Any, Literal, NotRequired, TypeAlias, TypedDict, Union\n\n'

/** A TypeScript module: the named types of one render, then the root as `Subject`. */
function tsModule(schema: unknown): string {
  const ctx = createTsRenderContext()
  const root = jsonSchemaToTs(schema, ctx.named('SubjectRoot'))
  return `${JSON_VALUE}${ctx.declarations()}type Subject = ${root};\nexport {}\n`
}

/** A Python module: the classes and aliases of one render, then the root as `Subject`. */
function pyModule(schema: unknown): string {
  const ctx = createPyRenderContext()
  const root = jsonSchemaToPy(schema, ctx.named('Subject'))
  return `${PY_HEADER}${ctx.declarations()}\n\nSubjectType: TypeAlias = ${JSON.stringify(root)}\n`
}

/** `tsc --strict` over many modules in one program (fast: one lib load). */
function typeCheck(modules: Record<string, string>): string[] {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    noUnusedLocals: false,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts'],
    types: [],
  }
  const host = ts.createCompilerHost(options)
  const files = new Map(Object.entries(modules).map(([name, code]) => [`/gen/${name}.ts`, code]))
  const getSourceFile = host.getSourceFile.bind(host)
  host.getSourceFile = (name, language, ...rest) => {
    const code = files.get(name)
    return code !== undefined
      ? ts.createSourceFile(name, code, language, true)
      : getSourceFile(name, language, ...rest)
  }
  const fileExists = host.fileExists.bind(host)
  host.fileExists = (name) => files.has(name) || fileExists(name)
  const program = ts.createProgram([...files.keys()], options, host)
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`)
}

/** Runs `compile()` and `exec()` of each module in CPython; returns the failures. */
function pythonRun(modules: Record<string, string>): string[] {
  const script = `
import json, sys
failures = []
for name, code in json.load(sys.stdin).items():
    try:
        exec(compile(code, name, "exec"), {})
    except Exception as error:
        failures.append(name + ": " + repr(error))
print(json.dumps(failures))
`
  const result = spawnSync('python3', ['-c', script], { input: JSON.stringify(modules), encoding: 'utf8' })
  if (result.status !== 0) throw new Error(result.stderr)
  return JSON.parse(result.stdout) as string[]
}

function mapSchemas(render: (schema: unknown) => string): Record<string, string> {
  return Object.fromEntries(Object.entries(fullSchemas).map(([name, schema]) => [name, render(schema)]))
}

describe('code generation for full JSON Schema', () => {
  it('matches the TypeScript file snapshot', async () => {
    const text = Object.entries(mapSchemas(tsModule)).map(([name, code]) => `// ${name}\n${code}`)
    await expect(text.join('\n')).toMatchFileSnapshot('./__snapshots__/full-schema.ts.txt')
  })

  it('matches the Python file snapshot', async () => {
    const text = Object.entries(mapSchemas(pyModule)).map(([name, code]) => `# ${name}\n${code}`)
    await expect(text.join('\n')).toMatchFileSnapshot('./__snapshots__/full-schema.py.txt')
  })

  it('every generated TypeScript module type-checks with --strict, with and without a context', () => {
    const inline = Object.fromEntries(
      Object.entries(fullSchemas).map(([name, schema]) => [
        `${name}-inline`,
        `${JSON_VALUE}type Subject = ${jsonSchemaToTs(schema)};\nexport {}\n`,
      ]),
    )
    expect(typeCheck({ ...mapSchemas(tsModule), ...inline })).toEqual([])
  })

  it('every generated Python module compiles and executes (forward references included)', () => {
    const inline = Object.fromEntries(
      Object.entries(fullSchemas).map(([name, schema]) => [
        `${name}-inline`,
        `${PY_HEADER}Subject: TypeAlias = ${JSON.stringify(jsonSchemaToPy(schema))}\n`,
      ]),
    )
    expect(pythonRun({ ...mapSchemas(pyModule), ...inline })).toEqual([])
  })

  it('declares a recursive definition once, by its name, in both languages', () => {
    const ctx = createTsRenderContext()
    expect(jsonSchemaToTs(fullSchemas.tree, ctx.named('ToolArgs'))).toContain('root: TreeNode;')
    expect(ctx.declaredNames()).toEqual(['TreeNode'])
    expect(ctx.declarations()).toContain('children?: TreeNode[];')
    const py = createPyRenderContext()
    expect(jsonSchemaToPy(fullSchemas.tree, py.named('ToolArgs'))).toBe('ToolArgs')
    expect(py.declaredNames()).toEqual(['TreeNode', 'ToolArgs'])
    expect(py.declarations()).toContain('children: NotRequired[list[TreeNode]]')
  })

  it('`nullable: true` beside `$ref` admits null exactly where the validator does (2019-09+, not draft-07)', () => {
    const defs: Record<string, JsonSchemaNode> = { A: { type: 'string' } }
    const modern: JsonSchemaNode = {
      type: 'object',
      properties: { a: { $ref: '#/$defs/A', nullable: true } },
      $defs: defs,
    }
    const draft07: JsonSchemaNode = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { a: { $ref: '#/definitions/A', nullable: true } },
      definitions: defs,
    }
    // The legacy spellings the validator reads are part of the type (a compile-time check).
    const legacy: JsonSchemaNode = {
      id: 'x',
      type: 'number',
      minimum: 0,
      exclusiveMinimum: true,
      nullable: true,
    }
    expect(compileJsonSchemaValidator(legacy)(0)).not.toEqual([])
    expect(compileJsonSchemaValidator(modern)({ a: null })).toEqual([])
    expect(jsonSchemaToTs(modern)).toBe('{ a?: string | null }')
    expect(compileJsonSchemaValidator(draft07)({ a: null })).not.toEqual([])
    expect(jsonSchemaToTs(draft07)).toBe('{ a?: string }')
    const py = createPyRenderContext()
    jsonSchemaToPy(modern, py.named('Args'))
    expect(py.declarations()).toContain('a: NotRequired[Union[A, None]]')
  })

  it('renders each keyword family as the README says', () => {
    const type = (schema: unknown) => jsonSchemaToTs(schema)
    expect(type({ type: ['string', 'null'] })).toBe('string | null')
    expect(type({ type: 'string', nullable: true })).toBe('string | null')
    expect(type({ anyOf: [{ type: 'string' }, { type: 'integer' }] })).toBe('string | number')
    expect(
      type({ allOf: [{ properties: { a: { type: 'string' } } }, { properties: { b: { type: 'number' } } }] }),
    ).toBe('{ a?: string } & { b?: number }')
    expect(type({ enum: [1, 'a', null, [true], { k: 'v' }] })).toBe('1 | "a" | null | [true] | {"k":"v"}')
    expect(type({ prefixItems: [{ type: 'string' }, { type: 'number' }], minItems: 1 })).toBe(
      '[string, number?, ...JsonValue[]]',
    )
    expect(
      type({ type: 'object', patternProperties: { '^x': { type: 'integer' } }, additionalProperties: false }),
    ).toBe('{ [key: string]: number }')
    expect(type(false)).toBe('never')
    expect(type(true)).toBe('JsonValue')
    expect(type({ type: 'string', not: { const: '' } })).toBe('string')
    const doc = type({
      type: 'object',
      properties: { n: { type: 'integer', minimum: 1, exclusiveMaximum: 9, readOnly: true } },
    })
    expect(doc).toContain('@minimum 1')
    expect(doc).toContain('@exclusiveMaximum 9')
    expect(doc).toContain('@readOnly')
    expect(jsonSchemaToPy({ type: 'object', additionalProperties: { type: 'integer' } })).toBe(
      'dict[str, int]',
    )
    expect(jsonSchemaToPy({ prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false })).toBe(
      'list[Union[str, int]]',
    )
  })

  it('is deterministic, and the order of $defs, required and keywords does not matter', () => {
    const reorder = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(reorder)
      if (typeof value !== 'object' || value === null) return value
      const entries = Object.entries(value).map(([key, child]) => [key, reorder(child)] as const)
      // Keep property order (it is the order fields are shown in); reverse everything else.
      const ordered =
        Object.hasOwn(value, 'type') || Object.hasOwn(value, '$ref') ? entries.reverse() : entries
      const out = Object.fromEntries(ordered)
      if (Array.isArray(out.required)) out.required = [...out.required].reverse()
      for (const key of ['$defs', 'definitions', 'patternProperties']) {
        if (typeof out[key] === 'object' && out[key] !== null)
          out[key] = Object.fromEntries(Object.entries(out[key]).reverse())
      }
      return out
    }
    for (const schema of Object.values(fullSchemas)) {
      expect(tsModule(structuredClone(schema))).toBe(tsModule(schema))
      expect(pyModule(structuredClone(schema))).toBe(pyModule(schema))
      expect(tsModule(reorder(schema))).toBe(tsModule(schema))
      expect(pyModule(reorder(schema))).toBe(pyModule(schema))
    }
  })

  it('survives stack-deep $ref chains and reference bombs, with and without a context', () => {
    const DEPTH = STACK_SAFE_DEPTH
    const $defs: Record<string, unknown> = {}
    for (let i = 0; i < DEPTH; i++) $defs[`d${i}`] = { type: 'array', items: { $ref: `#/$defs/d${i + 1}` } }
    $defs[`d${DEPTH}`] = { type: 'string' }
    const chain = { $defs, $ref: '#/$defs/d0' }
    const ctx = createTsRenderContext()
    expect(jsonSchemaToTs(chain, ctx)).toBe('D0')
    expect(ctx.declaredNames()).toHaveLength(DEPTH + 1)
    const py = createPyRenderContext()
    expect(jsonSchemaToPy(chain, py)).toBe('D0')
    expect(jsonSchemaToTs(chain)).toContain('[]')
    // Each level refers twice to the next: inlining would be 2^60 types; names keep it linear.
    const bomb: Record<string, unknown> = { b60: { type: 'string' } }
    for (let i = 0; i < 60; i++)
      bomb[`b${i}`] = {
        anyOf: [{ $ref: `#/$defs/b${i + 1}` }, { type: 'array', items: { $ref: `#/$defs/b${i + 1}` } }],
      }
    const schema = { $defs: bomb, $ref: '#/$defs/b0' }
    const bombCtx = createTsRenderContext()
    expect(jsonSchemaToTs(schema, bombCtx)).toBe('B0')
    expect(bombCtx.declaredNames()).toHaveLength(61)
    expect(jsonSchemaToTs(schema).length).toBeLessThan(1_000_000)
    expect(jsonSchemaToPy(schema).length).toBeLessThan(1_000_000)
  })

  it('shares a definition across renders only when byte-identical, else suffixes it', () => {
    const node = (leaf: string) => ({
      $defs: { Node: { type: 'object', properties: { v: { type: leaf }, next: { $ref: '#/$defs/Node' } } } },
      $ref: '#/$defs/Node',
    })
    const ctx = createTsRenderContext()
    expect(jsonSchemaToTs(node('string'), ctx.named('A'))).toBe('Node')
    expect(jsonSchemaToTs(node('string'), ctx.named('B'))).toBe('Node')
    expect(jsonSchemaToTs(node('number'), ctx.named('C'))).toBe('Node2')
    expect(ctx.declarations()).toContain('type Node2 = { v?: number; next?: Node2 };')
    const py = createPyRenderContext()
    expect([node('string'), node('string'), node('number')].map((s) => jsonSchemaToPy(s, py))).toEqual([
      'Node',
      'Node',
      'Node2',
    ])
  })

  it('unresolvable and remote references degrade without throwing', () => {
    for (const ref of ['other.json#/x', '#/$defs/missing', '#nowhere', '#/%zz']) {
      expect(jsonSchemaToTs({ $ref: ref }, createTsRenderContext())).toBe('JsonValue')
      expect(jsonSchemaToPy({ $ref: ref }, createPyRenderContext())).toBe('Any')
    }
  })
})

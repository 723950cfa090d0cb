import type { ToolSchema } from '@dsh/tools-core'
import { describe, expect, it } from 'vitest'
import { renderPythonSdk } from '../src/sdk/python'
import { renderTypeScriptSdk } from '../src/sdk/typescript'
import { BREAKERS, HOSTILE_NAMES, hostileTools } from './fixtures/hostile-tools'
import { checkPython, checkTypeScript, splitFences } from './fixtures/sdk-checkers'
import { VARIED_TOOLS } from './fixtures/varied-tools'

/** Characters that must never reach the prompt raw (tab and newline are the only controls). */
const RAW_UNSAFE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

const PYTHON_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/
const PYTHON_KEYWORDS = new Set(['class', 'None', 'True', 'False', 'def', 'import', 'pass', 'return'])

/** Tool sets: the whole corpus at once, and each hostile tool alone (so no other tool masks it). */
function toolSets(): [string, ToolSchema[]][] {
  const all = hostileTools()
  return [
    ['whole corpus', all],
    ...all.map((tool): [string, ToolSchema[]] => [JSON.stringify(tool.name), [tool]]),
  ]
}

describe('SDK text under hostile tool metadata', () => {
  it('the corpus covers every breaker as description, title, enum, property name and tool name', () => {
    expect(BREAKERS.length).toBeGreaterThan(15)
    expect(HOSTILE_NAMES).toEqual(expect.arrayContaining(['__init__', '__getitem__', '__class__', 'class']))
  })

  describe.each([
    ['TypeScript', renderTypeScriptSdk, 'typescript'],
    ['Python', renderPythonSdk, 'python'],
  ] as const)('%s', (_language, render, tag) => {
    it('keeps exactly the SDK’s own two fences and no raw control or separator characters', () => {
      for (const [label, tools] of toolSets()) {
        const text = render(tools)
        const { fences } = splitFences(text)
        expect(fences, label).toHaveLength(2)
        expect(fences[0], label).toMatch(new RegExp(`^\`{3,}${tag}$`))
        expect(fences[1], label).toBe(fences[0]!.slice(0, fences[0]!.length - tag.length))
        expect(text.endsWith(fences[1]!), label).toBe(true)
        expect(RAW_UNSAFE.test(text), label).toBe(false)
      }
    })
  })

  it('TypeScript parses and type-checks with --strict, declaring only the SDK’s names', () => {
    for (const tools of [hostileTools(), VARIED_TOOLS, []]) {
      const { code } = splitFences(renderTypeScriptSdk(tools))
      const { diagnostics, declared, kinds } = checkTypeScript(code)
      expect(diagnostics).toEqual([])
      expect(declared).toEqual([
        'JsonValue',
        'ToolArgsMap',
        'ToolOutputMap',
        'ToolName',
        'ToolCallError',
        'tools',
      ])
      expect(kinds).toEqual([
        'TypeAliasDeclaration',
        'InterfaceDeclaration',
        'InterfaceDeclaration',
        'TypeAliasDeclaration',
        'ClassDeclaration',
        'VariableStatement',
      ])
    }
  })

  it('Python parses with ast and declares only the SDK’s names; odd names are subscript-only', () => {
    for (const [label, tools] of [['corpus', hostileTools()] as const, ['varied', VARIED_TOOLS] as const]) {
      const { code } = splitFences(renderPythonSdk(tools))
      const report = checkPython(code)
      expect(report.error, label).toBeUndefined()
      expect(
        report.imports.every((name) => name.startsWith('typing.')),
        label,
      ).toBe(true)
      expect(report.assigned, label).toEqual(['JsonValue', 'tools'])
      expect(report.topLevelOther, label).toEqual([])
      const names = new Set(tools.map((tool) => tool.name))
      for (const klass of report.classes) {
        expect(klass.strays, `${label} ${klass.name}`).toBe(0)
        if (klass.name === 'Tools') {
          for (const member of klass.members) {
            expect(member, label).toMatch(/^(async:[A-Za-z][A-Za-z0-9_]*|def:__getitem__(:overload)?)$/)
          }
        } else if (klass.name === 'ToolCallError') {
          expect(klass.bases).toEqual(['Exception'])
        } else {
          expect(klass.bases, `${label} ${klass.name}`).toEqual(['TypedDict'])
          for (const member of klass.members) {
            expect(member, `${label} ${klass.name}`).toMatch(
              /^(pass|field:[A-Za-z][A-Za-z0-9_]*|field:_[A-Za-z0-9][A-Za-z0-9_]*)$/,
            )
          }
        }
      }
      // every tool is reachable exactly once: as a safe method or through tools["name"]
      expect([...report.methods, ...report.subscripts].sort(), label).toEqual([...names].sort())
      for (const method of report.methods) {
        expect(
          PYTHON_IDENTIFIER.test(method) && !method.startsWith('_') && !PYTHON_KEYWORDS.has(method),
        ).toBe(true)
      }
      for (const name of [
        '__init__',
        '__getitem__',
        '__class__',
        '__call__',
        '_private',
        'class',
        'None',
        'Any',
        'str',
        'self',
        'tools',
        'Tools',
        'ToolCallError',
        'JsonValue',
      ]) {
        if (names.has(name)) expect(report.subscripts, label).toContain(name)
      }
    }
  })

  it('shows annotations to the model in both languages', () => {
    const tool: ToolSchema = {
      name: 'annotated',
      description: 'Annotated.',
      parameters: {
        type: 'object',
        properties: {
          path: {
            type: 'string',
            title: 'Path',
            description: 'Where.',
            default: '/tmp',
            examples: ['/a'],
            deprecated: true,
          },
        },
      },
      outputSchema: { type: 'null' },
    }
    const typescript = renderTypeScriptSdk([tool])
    expect(typescript).toContain(
      '    /**\n     * Path\n     *\n     * Where.\n     * @default "/tmp"\n     * @example "/a"\n     * @deprecated\n     */\n    path?: string;',
    )
    const python = renderPythonSdk([tool])
    expect(python).toContain(
      '    # Path\n    # Where.\n    # Default: "/tmp"\n    # Example: "/a"\n    # Deprecated.\n    path: NotRequired[str]',
    )
  })
})

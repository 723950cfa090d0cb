import { describe, expect, it } from 'vitest'
import { UnsupportedCodeLanguageError } from '../src/errors'
import { renderPythonSdk } from '../src/sdk/python'
import { CODE_ONLY_RULE_TEXT, codeModeSections } from '../src/sdk/sections'
import { renderTypeScriptSdk } from '../src/sdk/typescript'
import { PYTHON_USAGE_NOTES, TYPESCRIPT_USAGE_NOTES } from '../src/sdk/usage-notes'
import { VARIED_TOOLS } from './fixtures/varied-tools'

const SEED_NOTES = `## Writing code for run_code

\`run_code\` takes two required arguments: \`code\` — the body of an async TypeScript function (erasable syntax only — no \`enum\` or namespaces; type annotations are advisory, the code runs type-stripped) — and \`description\`, a short summary of what the program does. Inside the program:

- Call tools as \`await tools.name(args)\` — quoted access for exotic names: \`tools["my-tool"](args)\`. Every call resolves to the tool's typed canonical JSON value. Tool arguments must be lossless JSON.
- A FAILED tool call rejects with \`ToolCallError\`, whose \`toolName\` identifies the failed tool and whose \`message\` is human-readable — \`try/catch\` it to handle and continue.
- Independent read-only calls MAY overlap under \`Promise.all\` (safe calls run concurrently; mutating calls run alone, in submission order). Sequence dependent work with \`await\`.
- Emit results with \`return\` and/or \`console.log(...)\`. ONLY what you print or return comes back to you — intermediate tool results never enter the conversation, so extract just what you need.

The available tools:`

describe('TypeScript SDK', () => {
  it('matches the snapshot for a varied tool set', async () => {
    await expect(renderTypeScriptSdk(VARIED_TOOLS)).toMatchFileSnapshot('__snapshots__/sdk.typescript.md')
  })

  it('starts with the seed usage notes, word for word', () => {
    expect(TYPESCRIPT_USAGE_NOTES).toBe(SEED_NOTES)
    expect(renderTypeScriptSdk(VARIED_TOOLS).startsWith(`${SEED_NOTES}\n`)).toBe(true)
  })

  it('is byte-identical for an unchanged tool set in any order, and lexicographic', () => {
    const first = renderTypeScriptSdk(VARIED_TOOLS)
    const again = renderTypeScriptSdk([...VARIED_TOOLS].reverse())
    const copies = renderTypeScriptSdk(VARIED_TOOLS.map((tool) => ({ ...tool })))
    expect(again).toBe(first)
    expect(copies).toBe(first)
    const bindings = first.slice(first.indexOf('declare const tools'))
    const order = [...bindings.matchAll(/^ {2}("[^"]+"|[\w$]+)\(args/gm)].map((match) =>
      match[1]!.replace(/"/g, ''),
    )
    expect(order).toEqual([...order].sort())
    expect(order).toHaveLength(VARIED_TOOLS.length)
  })

  it('quotes exotic names and escapes */ in descriptions', () => {
    const text = renderTypeScriptSdk(VARIED_TOOLS)
    expect(text).toContain(
      '  "my-tool"(args: { "content-type"?: "json"; class?: boolean }): Promise<string>;',
    )
    expect(text).toContain('  $dollar(args: { n?: 1 | 2 | 3 }): Promise<string | null>;')
    expect(text).toContain('Comment closer *\\/ inside.')
    expect(text).not.toMatch(/closer \*\/ inside/)
  })

  it('skips the run_code transport and re-renders a changed description', () => {
    const withTransport = [...VARIED_TOOLS, { ...VARIED_TOOLS[0]!, name: 'run_code' }]
    expect(renderTypeScriptSdk(withTransport)).toBe(renderTypeScriptSdk(VARIED_TOOLS))
    const changed = VARIED_TOOLS.map((tool) =>
      tool.name === 'read' ? { ...tool, description: 'Changed.' } : tool,
    )
    expect(renderTypeScriptSdk(changed)).toContain('/** Changed. */\n  read(args')
  })

  it('declares every tool exactly once (its schemas are not repeated in the maps)', () => {
    const text = renderTypeScriptSdk(VARIED_TOOLS)
    for (const tool of VARIED_TOOLS) {
      const key = /^[A-Za-z_$][\w$]*$/.test(tool.name) ? tool.name : JSON.stringify(tool.name)
      expect(text.split(`\n  ${key}(args: `)).toHaveLength(2)
      expect(text).not.toContain(`ToolArgsMap[${JSON.stringify(tool.name)}]`)
    }
    expect(text).toContain('type ToolArgsMap = { [K in ToolName]: Parameters<(typeof tools)[K]>[0] };')
  })

  it('renders an empty tool set', () => {
    expect(renderTypeScriptSdk([])).toContain('declare const tools: {\n};')
  })
})

describe('Python SDK', () => {
  it('matches the snapshot for a varied tool set', async () => {
    await expect(renderPythonSdk(VARIED_TOOLS)).toMatchFileSnapshot('__snapshots__/sdk.python.md')
  })

  it('starts with the Python usage notes and is deterministic', () => {
    const text = renderPythonSdk(VARIED_TOOLS)
    expect(text.startsWith(`${PYTHON_USAGE_NOTES}\n`)).toBe(true)
    expect(renderPythonSdk([...VARIED_TOOLS].reverse())).toBe(text)
    expect(PYTHON_USAGE_NOTES).toContain('await tools.name(args)')
    expect(PYTHON_USAGE_NOTES).toContain('print(...)')
    expect(PYTHON_USAGE_NOTES).toContain('top-level `return`')
  })

  it('declares named TypedDicts, methods for identifiers and subscripts for exotic names', () => {
    const text = renderPythonSdk(VARIED_TOOLS)
    expect(text).toContain('class ReadArgs(TypedDict):')
    expect(text).toContain('    async def read(self, args: ReadArgs) -> ReadOutput:')
    expect(text).toContain('def __getitem__(self, name: Literal["my-tool"])')
    expect(text).toContain('def __getitem__(self, name: Literal["class"])')
    expect(text).toMatch(/class ReadFileArgs2\(TypedDict\)/)
  })

  it('uses per-tool cached fragments when class names do not collide', () => {
    const tools = VARIED_TOOLS.filter((tool) => tool.name !== 'read-file')
    const text = renderPythonSdk(tools)
    expect(text).toBe(renderPythonSdk([...tools].reverse()))
    expect(text).not.toContain('ReadFileArgs2')
  })
})

describe('codeModeSections', () => {
  it('states the code-only rule in code mode and renders it empty in both', () => {
    const code = codeModeSections('typescript', { mode: 'code', tools: VARIED_TOOLS })
    const both = codeModeSections('typescript', { mode: 'both', tools: VARIED_TOOLS })
    expect(code).toEqual([
      { id: 'tools:code-only', order: 140, text: CODE_ONLY_RULE_TEXT },
      { id: 'tools:sdk', order: 150, text: renderTypeScriptSdk(VARIED_TOOLS) },
    ])
    expect(both[0]).toEqual({ id: 'tools:code-only', order: 140, text: '' })
    expect(both[1]!.text).toBe(code[1]!.text)
  })

  it('switches the SDK with the runtime language and throws for a language with no renderer', () => {
    expect(codeModeSections('python', { mode: 'code', tools: VARIED_TOOLS })[1]!.text).toBe(
      renderPythonSdk(VARIED_TOOLS),
    )
    expect(() => codeModeSections('ruby', { mode: 'code', tools: [] })).toThrow(UnsupportedCodeLanguageError)
    expect(() => codeModeSections('toString', { mode: 'code', tools: [] })).toThrow(
      /no Code Mode SDK renderer/,
    )
  })
})

describe('fragment cache', () => {
  const mutableTool = () => {
    const parameters = {
      type: 'object' as const,
      properties: { value: { type: 'string' as 'string' | 'number' } },
      required: ['value'],
    }
    const outputSchema = { type: 'string' as 'string' | 'number' }
    return {
      tool: { name: 'probe', description: 'Same text.', parameters, outputSchema },
      parameters,
      outputSchema,
    }
  }

  it.each([
    ['TypeScript', renderTypeScriptSdk, 'value: string', 'value: number'],
    ['Python', renderPythonSdk, 'value: str', 'value: float'],
  ] as const)(
    '%s: a schema mutated in place is never served from a stale cache entry',
    (_language, render, before, after) => {
      const { tool, parameters, outputSchema } = mutableTool()
      expect(render([tool])).toContain(before)
      parameters.properties.value.type = 'number'
      outputSchema.type = 'number'
      const text = render([tool])
      expect(text).toContain(after)
      expect(text).not.toContain(before)
    },
  )

  it('deep-frozen schemas (as the registry hands them out) render the same text from the cache', () => {
    const frozen = VARIED_TOOLS.map((tool) => structuredClone(tool)).map((tool) => deepFreeze(tool))
    const first = renderTypeScriptSdk(frozen)
    expect(renderTypeScriptSdk(frozen)).toBe(first)
    expect(first).toBe(renderTypeScriptSdk(VARIED_TOOLS))
    expect(renderPythonSdk(frozen)).toBe(renderPythonSdk(VARIED_TOOLS))
  })
})

function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value]
  while (stack.length > 0) {
    const node = stack.pop()
    if (typeof node !== 'object' || node === null || Object.isFrozen(node)) continue
    Object.freeze(node)
    for (const child of Object.values(node)) stack.push(child)
  }
  return value
}

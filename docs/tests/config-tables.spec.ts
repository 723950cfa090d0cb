// Every config key of every package is documented: each package README's Config table is the one
// scripts/config-tables.ts generates from the package's `Config` spec, unchanged (no drift).
// `ToolRuntimeConfig` (tools-core's own, a configSchema too) also has a written-out interface: the
// spec's keys are its keys, and every doc that spells it out (`ToolRuntimeConfig` … `{ mode?, … }`)
// names them all.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { ToolRuntimeConfigSchema } from '../../packages/tools-core/src/runtime-config'
import { CONFIG_TABLES, expectedReadme } from '../../scripts/config-tables'
import { markdownFiles, ROOT } from './support/workspace'

/** The member names of `interface <name>` in `file`, read from its source. */
function interfaceKeys(file: string, name: string): string[] {
  const path = join(ROOT, file)
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.ES2022, true)
  const found = source.statements.find(
    (statement): statement is ts.InterfaceDeclaration =>
      ts.isInterfaceDeclaration(statement) && statement.name.text === name,
  )
  if (found === undefined) throw new Error(`no interface ${name} in ${file}`)
  return found.members.map((member) => (member.name as ts.Identifier).text)
}

describe('config tables in the READMEs', () => {
  it.each(CONFIG_TABLES.map((table) => [table.readme, table] as const))(
    '%s: the Config table is the one generated from its spec (pnpm config-tables)',
    async (_readme, table) => {
      const { current, expected } = await expectedReadme(table)
      expect(current).toBe(expected)
    },
  )

  it('lists every shipped package whose Config is a configSchema', () => {
    expect(CONFIG_TABLES.map((table) => table.readme.split('/')[1])).toEqual(
      expect.arrayContaining([
        'code-runtime-pyodide',
        'code-runtime-worker-thread',
        'tool-bash',
        'tool-call-timeout-policy',
        'tool-fs',
        'tool-otel',
        'tools-codemode',
        'tools-mcp',
        'tool-approvals',
        'tools-store-postgres',
        'tools-store-sqlite',
        'tools-core',
      ]),
    )
  })
})

describe('ToolRuntimeConfig in the docs', () => {
  const keys = interfaceKeys('packages/tools-core/src/runtime-config.ts', 'ToolRuntimeConfig')

  it('reads the interface (mode, formats, valueLimits … at least)', () => {
    expect(keys).toEqual(
      expect.arrayContaining(['mode', 'resultBudget', 'formats', 'valueLimits', 'disposeGraceMs']),
    )
  })

  it('the spec (whose JSON Schema makes the Config table) has exactly the interface keys', () => {
    const schema = ToolRuntimeConfigSchema['~standard'].jsonSchema.input({ target: 'draft-2020-12' })
    expect(Object.keys(schema.properties as object).sort()).toEqual([...keys].sort())
  })

  it('wherever a doc spells the config out as `{ … }` after its name, it names every key', () => {
    const spelled: string[] = []
    for (const file of markdownFiles()) {
      const text = readFileSync(join(ROOT, file), 'utf8')
      for (const match of text.matchAll(/`ToolRuntimeConfig`[^{`]{0,60}`\{([^}`]*)\}`/g)) {
        spelled.push(file)
        const named = [...match[1]!.matchAll(/(\w+)\??/g)].map((key) => key[1]!)
        expect(named.sort(), `${file}: ${match[0]}`).toEqual([...keys].sort())
      }
    }
    // The API types table of the README and docs/architecture.md.
    expect(spelled).toEqual(expect.arrayContaining(['packages/tools-core/README.md', 'docs/architecture.md']))
  })
})

// Every config key of every package is documented: a row of a table in the package README.
// `ToolRuntimeConfig` more strictly: its README's Config table has exactly its keys, and every
// doc that spells it out (`ToolRuntimeConfig` … `{ mode?, … }`) names them all.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { markdownFiles, ROOT } from './support/workspace'

const README = readFileSync(join(ROOT, 'packages/tools-core/README.md'), 'utf8')

/** The config interfaces of the packages: package directory, source file, interface. */
const CONFIGS: readonly (readonly [string, string, string])[] = [
  ['packages/code-runtime-pyodide', 'src/types.ts', 'PyodideRuntimeConfig'],
  ['packages/code-runtime-worker-thread', 'src/types.ts', 'WorkerThreadRuntimeConfig'],
  ['packages/tool-approvals', 'src/config.ts', 'ToolApprovalsConfig'],
  ['packages/tool-bash', 'src/config.ts', 'BashConfig'],
  ['packages/tool-bash', 'src/sandbox-config.ts', 'BashSandboxConfig'],
  ['packages/tool-call-timeout-policy', 'src/plugin.ts', 'TimeoutPolicyConfig'],
  ['packages/tool-fs', 'src/config.ts', 'FsToolsConfig'],
  ['packages/tool-otel', 'src/plugin.ts', 'ToolOtelConfig'],
  ['packages/tools-codemode', 'src/config.ts', 'CodeModeConfig'],
  ['packages/tools-core', 'src/runtime-config.ts', 'ToolRuntimeConfig'],
  ['packages/tools-mcp', 'src/config.ts', 'McpClientConfig'],
  ['packages/tools-store-postgres', 'src/config.ts', 'CommonConfig'],
  ['packages/tools-store-postgres', 'src/config.ts', 'PostgresConnectionStringConfig'],
  ['packages/tools-store-postgres', 'src/config.ts', 'PostgresPoolConfig'],
  ['packages/tools-store-sqlite', 'src/config.ts', 'SqliteToolStoreConfigInput'],
]

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

/** The first-column keys of the table under `## Config`. */
function configTableKeys(): string[] {
  const section = /^## Config\n([\s\S]*?)^## /m.exec(README)?.[1] ?? ''
  return [...section.matchAll(/^\| `(\w+)` +\|/gm)].map((match) => match[1]!)
}

describe('config keys in the READMEs', () => {
  it.each(CONFIGS)('%s: every key of %s/%s is a table row of the README', (dir, file, name) => {
    const keys = interfaceKeys(`${dir}/${file}`, name)
    expect(keys.length).toBeGreaterThan(0)
    const readme = readFileSync(join(ROOT, dir, 'README.md'), 'utf8')
    const rows = new Set([...readme.matchAll(/^\s*\| *`(\w+)`/gm)].map((match) => match[1]!))
    expect(keys.filter((key) => !rows.has(key))).toEqual([])
  })
})

describe('ToolRuntimeConfig in the docs', () => {
  const keys = interfaceKeys('packages/tools-core/src/runtime-config.ts', 'ToolRuntimeConfig')

  it('reads the interface (mode, formats, valueLimits … at least)', () => {
    expect(keys).toEqual(
      expect.arrayContaining(['mode', 'resultBudget', 'formats', 'valueLimits', 'disposeGraceMs']),
    )
  })

  it('the Config table has exactly the interface keys', () => {
    expect(configTableKeys().sort()).toEqual([...keys].sort())
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

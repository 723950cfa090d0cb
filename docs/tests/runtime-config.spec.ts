// Every key of `ToolRuntimeConfig` is documented: a row of the tools-core README's Config table,
// and a name wherever a doc spells the config out (`ToolRuntimeConfig` … `{ mode?, … }`); and
// nothing is documented that the interface does not have.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { markdownFiles, ROOT } from './support/workspace'

const SOURCE = join(ROOT, 'packages/tools-core/src/runtime-config.ts')
const README = readFileSync(join(ROOT, 'packages/tools-core/README.md'), 'utf8')

/** The member names of `interface ToolRuntimeConfig`, read from its source. */
function configKeys(): string[] {
  const source = ts.createSourceFile(SOURCE, readFileSync(SOURCE, 'utf8'), ts.ScriptTarget.ES2022, true)
  const found = source.statements.find(
    (statement): statement is ts.InterfaceDeclaration =>
      ts.isInterfaceDeclaration(statement) && statement.name.text === 'ToolRuntimeConfig',
  )
  if (found === undefined) throw new Error(`no interface ToolRuntimeConfig in ${SOURCE}`)
  return found.members.map((member) => (member.name as ts.Identifier).text)
}

/** The first-column keys of the table under `## Config`. */
function configTableKeys(): string[] {
  const section = /^## Config\n([\s\S]*?)^## /m.exec(README)?.[1] ?? ''
  return [...section.matchAll(/^\| `(\w+)` +\|/gm)].map((match) => match[1]!)
}

describe('ToolRuntimeConfig in the tools-core README', () => {
  const keys = configKeys()

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

// The README's loops are complete programs: each ```ts fragment block that imports something is
// type-checked against the real SDKs under the package's strict tsconfig (running them needs an
// API key, so they are fenced as fragments). The block that starts with `// setup.ts` is the
// module the loops import as './setup'. A block without imports continues a loop and is skipped.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const CONFIG = fileURLToPath(new URL('../tsconfig.json', import.meta.url))
const README = fileURLToPath(new URL('../README.md', import.meta.url))
const HERE = fileURLToPath(new URL('./', import.meta.url))

function blocks(): Map<string, string> {
  const markdown = readFileSync(README, 'utf8')
  const out = new Map<string, string>()
  let index = 0
  for (const match of markdown.matchAll(/^```ts fragment\n([\s\S]*?)^```$/gm)) {
    const code = match[1]!
    if (!/^import /m.test(code)) continue
    const name = code.startsWith('// setup.ts') ? 'setup' : `loop-${index++}`
    // the self-import resolves through the package's exports map, as a user's would
    out.set(`${HERE}${name}.ts`, code)
  }
  return out
}

describe('README loops', { timeout: 120_000 }, () => {
  it('every loop type-checks against its SDK (tsc --strict)', () => {
    const files = blocks()
    expect([...files.keys()].map((file) => file.slice(HERE.length))).toEqual([
      'setup.ts',
      'loop-0.ts',
      'loop-1.ts',
      'loop-2.ts',
      'loop-3.ts',
    ])
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
    const problems = [...files.keys()].flatMap((file) =>
      [
        ...program.getSemanticDiagnostics(program.getSourceFile(file)),
        ...program.getSyntacticDiagnostics(program.getSourceFile(file)),
      ].map((d) => `${file.slice(HERE.length)}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`),
    )
    expect(problems).toEqual([])
  })
})

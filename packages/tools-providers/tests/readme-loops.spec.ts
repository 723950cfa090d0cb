// The root README's OpenAI loop (its tour) is a complete program, fenced as a fragment only
// because running it needs an API key: it is type-checked here against the real `openai` SDK
// under the package's strict tsconfig. (This README's own loops are plain samples, compiled
// by docs/tests/ts-samples.spec.ts.)
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const CONFIG = fileURLToPath(new URL('../tsconfig.json', import.meta.url))
const ROOT_README = fileURLToPath(new URL('../../../README.md', import.meta.url))
const FILE = fileURLToPath(new URL('./root-readme-loop.ts', import.meta.url))

function loop(): string {
  const blocks = [...readFileSync(ROOT_README, 'utf8').matchAll(/^```ts fragment\n([\s\S]*?)^```$/gm)]
  const found = blocks
    .map((match) => match[1]!)
    .filter((code) => code.includes("from '@dsh/tools-providers'"))
  expect(found).toHaveLength(1)
  return found[0]!
}

describe('the root README loop', { timeout: 120_000 }, () => {
  it('is under 30 lines and type-checks against the openai SDK (tsc --strict)', () => {
    const code = loop()
    expect(code.trimEnd().split('\n').length).toBeLessThan(30)
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
    host.fileExists = (file) => file === FILE || fileExists.call(host, file)
    host.readFile = (file) => (file === FILE ? code : readFile.call(host, file))
    host.getSourceFile = (file, language, ...rest) =>
      file === FILE
        ? ts.createSourceFile(file, code, language, true)
        : getSourceFile.call(host, file, language, ...rest)
    const program = ts.createProgram({ rootNames: [FILE], options: parsed.options, host })
    const source = program.getSourceFile(FILE)!
    const problems = [
      ...program.getSyntacticDiagnostics(source),
      ...program.getSemanticDiagnostics(source),
    ].map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
    expect(problems).toEqual([])
  })
})

import { afterAll, describe, expect, it } from 'vitest'
import { checkProgram } from '../src/check-program'
import { TypeStripper } from '../src/strip/type-stripper'

const stripper = new TypeStripper()
afterAll(() => stripper.dispose())
const stripTypeScript = (code: string) => stripper.strip(code)

const prepare = async (code: string) => {
  const stripped = await stripTypeScript(code)
  if (!stripped.ok) throw new Error(stripped.message)
  return checkProgram(stripped.source)
}

describe('type stripping and the program check', () => {
  it('strips erasable TypeScript and keeps top-level return and await', async () => {
    const stripped = await stripTypeScript('const x: number = await Promise.resolve(1)\nreturn x as number')
    expect(stripped.ok).toBe(true)
    if (stripped.ok) expect(stripped.source.split('\n')).toHaveLength(4)
  })

  it('refuses enum and namespaces as unsupported syntax with the program line', async () => {
    const enumResult = await stripTypeScript('const a = 1\nenum Colour { Red }')
    expect(enumResult).toEqual({ ok: false, message: expect.stringMatching(/enum.*line 2/) })
    expect((await stripTypeScript('namespace N { export const x = 1 }')).ok).toBe(false)
  })

  it('reports syntax errors', async () => {
    expect((await stripTypeScript('let x: = 2')).ok).toBe(false)
  })

  it('refuses import() however it is spelled', async () => {
    expect(await prepare('await import("fs")')).toMatch(/import\(\) is not available/)
    expect(await prepare('await import /* c */ ("fs")')).toMatch(/import\(\) is not available/)
    expect(await prepare('const f = async () => { if (0) { return import("node:" + "fs") } }')).toMatch(
      /import\(\)/,
    )
  })

  it('allows import as a property name or inside strings', async () => {
    expect(
      await prepare('const o = { import: 1 }; return [o.import, "import(x)", `import("y")`]'),
    ).toBeUndefined()
  })

  it('refuses a program that closes the function it is wrapped in, however it reopens one', async () => {
    const escapes = [
      'return 1\n})\n;(async () => {',
      'return 1 }); for (;;) {}; (async () => {',
      'return 1\n}, (async () => { return 2 })\n,(async () => {',
      'return 1 })\n;var tools = 5\n;((async () => {})',
      'return 1 }) + (async () => {',
      'const a: number = 1\n})\n;(async (): Promise<void> => {',
    ]
    for (const code of escapes) {
      const stripped = await stripTypeScript(code)
      // Either the stripper or the shape check refuses it; none reaches a worker.
      const refusal = stripped.ok ? checkProgram(stripped.source) : stripped.message
      expect(refusal, code).toMatch(/SyntaxError|closes the function/)
    }
    // Ordinary programs, including ones ending in a comment or with braces in strings, pass.
    for (const code of [
      'return 1 //',
      'return "})"',
      'const f = () => { return 1 }\nreturn f()',
      '<!-- x\nreturn 1',
      '',
    ]) {
      expect(await prepare(code), code).toBeUndefined()
    }
  })
})

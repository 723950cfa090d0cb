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
})

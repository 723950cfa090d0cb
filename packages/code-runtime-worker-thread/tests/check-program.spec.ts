import { describe, expect, it } from 'vitest'
import { checkProgram } from '../src/check-program'
import { stripTypeScript } from '../src/strip-types'

const prepare = (code: string) => {
  const stripped = stripTypeScript(code)
  if (!stripped.ok) throw new Error(stripped.message)
  return checkProgram(stripped.source)
}

describe('type stripping and the program check', () => {
  it('strips erasable TypeScript and keeps top-level return and await', () => {
    const stripped = stripTypeScript('const x: number = await Promise.resolve(1)\nreturn x as number')
    expect(stripped.ok).toBe(true)
    if (stripped.ok) expect(stripped.source.split('\n')).toHaveLength(4)
  })

  it('refuses enum and namespaces as unsupported syntax with the program line', () => {
    const enumResult = stripTypeScript('const a = 1\nenum Colour { Red }')
    expect(enumResult).toEqual({ ok: false, message: expect.stringMatching(/enum.*line 2/) })
    expect(stripTypeScript('namespace N { export const x = 1 }').ok).toBe(false)
  })

  it('reports syntax errors', () => {
    expect(stripTypeScript('let x: = 2').ok).toBe(false)
  })

  it('refuses import() however it is spelled', () => {
    expect(prepare('await import("fs")')).toMatch(/import\(\) is not available/)
    expect(prepare('await import /* c */ ("fs")')).toMatch(/import\(\) is not available/)
    expect(prepare('const f = async () => { if (0) { return import("node:" + "fs") } }')).toMatch(
      /import\(\)/,
    )
  })

  it('allows import as a property name or inside strings', () => {
    expect(prepare('const o = { import: 1 }; return [o.import, "import(x)", `import("y")`]')).toBeUndefined()
  })
})

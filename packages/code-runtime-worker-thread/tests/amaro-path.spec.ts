// amaro is vendored into dist/ (its engines field says Node ≥ 22; this package supports 20.19),
// so the stripper must load the copy next to the built bundle, and the devDependency from source.
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import packageJson from '../package.json' with { type: 'json' }
import { amaroPath, VENDORED_AMARO } from '../src/strip/amaro-path'

const dirs: string[] = []
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

describe('amaroPath', () => {
  it('from source, resolves the amaro devDependency', () => {
    expect(amaroPath()).toBe(createRequire(import.meta.url).resolve('amaro'))
  })

  it('next to a built bundle, loads the vendored copy', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'amaro-path-'))
    dirs.push(dir)
    await mkdir(join(dir, 'vendor', 'amaro'), { recursive: true })
    await writeFile(join(dir, VENDORED_AMARO), 'module.exports = {}\n')
    expect(amaroPath(pathToFileURL(join(dir, 'index.js')).href)).toBe(join(dir, VENDORED_AMARO))
  })

  it('amaro is not a runtime dependency (its engines would refuse Node 20 under --engine-strict)', () => {
    const manifest = packageJson as {
      dependencies: Record<string, string>
      devDependencies: Record<string, string>
    }
    expect(manifest.dependencies).not.toHaveProperty('amaro')
    expect(manifest.devDependencies.amaro).toMatch(/^\d+\.\d+\.\d+$/) // pinned: the copy is verbatim
  })

  it('the built dist carries a working copy that strips types', (ctx) => {
    if (!existsSync(new URL('../dist/index.js', import.meta.url)))
      ctx.skip('needs a build (pnpm build); CI tests before building, and test:pack runs the built copy')
    const path = amaroPath(new URL('../dist/index.js', import.meta.url).href)
    expect(path).toContain(join('dist', 'vendor', 'amaro'))
    const amaro = createRequire(import.meta.url)(path) as {
      transformSync: (code: string, options: { mode: string }) => { code: string }
    }
    expect(amaro.transformSync('const x: number = 1', { mode: 'strip-only' }).code).toBe(
      'const x         = 1',
    )
  })
})

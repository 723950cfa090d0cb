// scripts/build-if-stale.ts decides whether `pnpm demo` has to build first.
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { staleReason } from '../../../scripts/build-if-stale'

let dir: string
const at = (seconds: number) => new Date(1_700_000_000_000 + seconds * 1000)

async function file(path: string, seconds: number): Promise<string> {
  const full = join(dir, path)
  await mkdir(join(full, '..'), { recursive: true })
  await writeFile(full, path)
  await utimes(full, at(seconds), at(seconds))
  return full
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'build-if-stale-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('staleReason', () => {
  const pkg = () => join(dir, 'pkg')
  const stamp = () => join(dir, 'pkg.stamp')

  it('a package without dist is stale', async () => {
    await file('pkg/src/index.ts', 10)
    expect(await staleReason(pkg(), [], stamp())).toBe('no dist')
    await mkdir(join(pkg(), 'dist'))
    expect(await staleReason(pkg(), [], stamp())).toBe('no dist')
  })

  it('is fresh when every dist file is newer than every input', async () => {
    await file('pkg/src/index.ts', 10)
    await file('pkg/src/deep/nested.ts', 11)
    await file('pkg/package.json', 5)
    await file('pkg/dist/index.js', 20)
    await file('pkg/dist/index.d.ts', 21)
    expect(await staleReason(pkg(), [], stamp())).toBeUndefined()
  })

  it.each([
    ['pkg/src/deep/nested.ts', 'src/deep/nested.ts'],
    ['pkg/package.json', 'package.json'],
    ['pkg/tsconfig.json', 'tsconfig.json'],
    ['pkg/tsup.config.ts', 'tsup.config.ts'],
  ])('is stale when %s is newer than the oldest dist file', async (path, named) => {
    await file('pkg/src/index.ts', 10)
    await file('pkg/dist/index.js', 20)
    await file('pkg/dist/index.d.ts', 30)
    await file(path, 25)
    expect(await staleReason(pkg(), [], stamp())).toBe(`${named} is newer than dist`)
  })

  it('is stale when a shared input (tsup.shared.ts, tsconfig.base.json) changed', async () => {
    await file('pkg/src/index.ts', 10)
    await file('pkg/dist/index.js', 20)
    const shared = await file('tsup.shared.ts', 30)
    expect(await staleReason(pkg(), [shared], stamp())).toMatch(/tsup\.shared\.ts is newer than dist$/)
  })

  it('a later stamp (a build that was a turbo cache hit) makes it fresh again', async () => {
    await file('pkg/dist/index.js', 20)
    await file('pkg/src/index.ts', 30)
    expect(await staleReason(pkg(), [], stamp())).toBe('src/index.ts is newer than dist')
    await file('pkg.stamp', 40)
    expect(await staleReason(pkg(), [], stamp())).toBeUndefined()
    await file('pkg/src/index.ts', 50)
    expect(await staleReason(pkg(), [], stamp())).toBe('src/index.ts is newer than dist')
  })
})

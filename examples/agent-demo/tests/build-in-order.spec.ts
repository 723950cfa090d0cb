// scripts/build-in-order.ts: the first build prints a line per package and is never quiet for
// long. A small node program stands in for turbo (a real turbo build takes minutes): it is
// started with the same arguments, `run build --filter=<name> --only --output-logs=full`.
import { describe, expect, it } from 'vitest'
import { buildInOrder } from '../../../scripts/build-in-order'
import type { BuildNode } from '../../../scripts/build-plan'

// Takes 600 ms; `cached` replays like a turbo cache hit; `broken` fails with its log.
const STAND_IN = `
const name = process.argv.find((arg) => arg.startsWith('--filter='))?.slice('--filter='.length)
setTimeout(() => {
  if (name === 'cached') console.log(name + ':build: cache hit, replaying logs')
  if (name === 'broken') {
    console.log(name + ':build: ERROR Unexpected end of file')
    process.exit(1)
  }
}, 600)
`

async function build(nodes: BuildNode[], slots: number) {
  const lines: string[] = []
  const ok = await buildInOrder(nodes, {
    turbo: [process.execPath, '-e', STAND_IN, '--'],
    cwd: process.cwd(),
    slots,
    print: (line) => lines.push(line),
    quietMs: 200,
  })
  return { ok, lines }
}

describe('buildInOrder', () => {
  it('prints each package as it is built, in dependency order, with heartbeats in between', async () => {
    const { ok, lines } = await build(
      [
        { name: 'last', needs: ['cached'] },
        { name: 'cached', needs: ['first'] },
        { name: 'first', needs: [] },
      ],
      2,
    )
    expect(ok).toBe(true)
    const built = lines.filter((line) => line.startsWith('built '))
    expect(built.map((line) => line.split(' ')[1])).toEqual(['first', 'cached', 'last'])
    expect(built[1]).toMatch(/^built cached in \d+\.\d s \(turbo cache\)$/)
    expect(built[0]).toMatch(/^built first in \d+\.\d s$/)
    // each 600 ms build outlasts the 200 ms quiet limit: at least one heartbeat per package
    expect(lines.filter((line) => line.startsWith('  … still building')).length).toBeGreaterThanOrEqual(3)
  })

  it('a failing package prints its turbo output and nothing that needs it starts', async () => {
    const { ok, lines } = await build(
      [
        { name: 'broken', needs: [] },
        { name: 'dependent', needs: ['broken'] },
      ],
      2,
    )
    expect(ok).toBe(false)
    expect(lines.some((line) => /^failed to build broken after \d+\.\d s; turbo said:$/.test(line))).toBe(
      true,
    )
    expect(lines.some((line) => line.includes('broken:build: ERROR Unexpected end of file'))).toBe(true)
    expect(lines.some((line) => line.includes('dependent'))).toBe(false)
  })
})

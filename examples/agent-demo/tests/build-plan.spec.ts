// scripts/build-plan.ts: the order `pnpm demo`'s first build takes and the lines it prints.
import { describe, expect, it } from 'vitest'
import { publishedPackageDirs } from '../../../scripts/build-if-stale'
import { buildNodes } from '../../../scripts/build-in-order'
import {
  type BuildNode,
  buildOrder,
  builtLine,
  heartbeatLine,
  readyToBuild,
  startLine,
} from '../../../scripts/build-plan'

const graph: BuildNode[] = [
  { name: '@dsh/tools-mcp', needs: ['@dsh/tools-core'] },
  { name: '@dsh/tools-core', needs: ['@dsh/tools-schema'] },
  { name: '@dsh/tools-schema', needs: [] },
  { name: '@dsh/tool-fs', needs: ['@dsh/tools-core'] },
]

describe('readyToBuild', () => {
  it('starts only packages whose needs are built, at most one per free slot', () => {
    const none = new Set<string>()
    expect(readyToBuild(graph, none, none, 2)).toEqual(['@dsh/tools-schema'])
    const schema = new Set(['@dsh/tools-schema'])
    expect(readyToBuild(graph, schema, none, 2)).toEqual(['@dsh/tools-core'])
    const core = new Set(['@dsh/tools-schema', '@dsh/tools-core'])
    expect(readyToBuild(graph, core, none, 2)).toEqual(['@dsh/tools-mcp', '@dsh/tool-fs'])
    expect(readyToBuild(graph, core, new Set(['@dsh/tools-mcp']), 2)).toEqual(['@dsh/tool-fs'])
    expect(readyToBuild(graph, core, new Set(['@dsh/tools-mcp']), 1)).toEqual([])
  })

  it('starts first the package that unblocks the most others', () => {
    const nodes: BuildNode[] = [
      { name: '@dsh/tool-bash', needs: ['@dsh/tools-core'] },
      { name: '@dsh/tools-codemode', needs: ['@dsh/tools-core'] },
      { name: '@dsh/tools-core', needs: [] },
      { name: '@dsh/code-runtime-worker-thread', needs: ['@dsh/tools-codemode'] },
    ]
    const core = new Set(['@dsh/tools-core'])
    expect(readyToBuild(nodes, core, new Set(), 1)).toEqual(['@dsh/tools-codemode'])
    expect(readyToBuild(nodes, core, new Set(), 2)).toEqual(['@dsh/tools-codemode', '@dsh/tool-bash'])
  })

  it('refuses a cycle and an unknown need instead of waiting forever', () => {
    const cycle = [
      { name: 'a', needs: ['b'] },
      { name: 'b', needs: ['a'] },
    ]
    expect(() => readyToBuild(cycle, new Set(), new Set(), 2)).toThrow(/dependency cycle among a, b/)
    expect(() => readyToBuild([{ name: 'a', needs: ['x'] }], new Set(), new Set(), 2)).toThrow(/a needs x/)
  })

  it('orders every package after its needs', () => {
    expect(buildOrder(graph)).toEqual([
      '@dsh/tools-schema',
      '@dsh/tools-core',
      '@dsh/tools-mcp',
      '@dsh/tool-fs',
    ])
  })

  it('the real workspace graph has an order that puts each package after its workspace dependencies', async () => {
    const nodes = await buildNodes(await publishedPackageDirs())
    const order = buildOrder(nodes)
    expect(order).toHaveLength(nodes.length)
    for (const node of nodes)
      for (const need of node.needs) expect(order.indexOf(need)).toBeLessThan(order.indexOf(node.name))
    expect(nodes.find((node) => node.name === '@dsh/tools-core')?.needs).toContain('@dsh/tools-schema')
  })
})

describe('progress lines', () => {
  it('formats a built package with its time, and says when turbo replayed its cache', () => {
    expect(builtLine('@dsh/tools-schema', 12_345, false)).toBe('built @dsh/tools-schema in 12.3 s')
    expect(builtLine('@dsh/tools-core', 800, true)).toBe('built @dsh/tools-core in 0.8 s (turbo cache)')
  })

  it('a heartbeat names every package still building with its elapsed time', () => {
    const running = new Map([
      ['@dsh/tools-mcp', 1_000],
      ['@dsh/tool-bash', 16_000],
    ])
    expect(heartbeatLine(running, 25_000)).toBe(
      '  … still building @dsh/tools-mcp (24 s), @dsh/tool-bash (9 s)',
    )
  })

  it('the first line says how many packages and why', () => {
    expect(startLine(10, 'tools-schema: no dist')).toBe(
      'building 10 packages first (tools-schema: no dist, …); each prints a line when built',
    )
    expect(startLine(1, 'tool-fs: src/a.ts is newer than dist')).toBe(
      'building 1 package first (tool-fs: src/a.ts is newer than dist); each prints a line when built',
    )
  })
})

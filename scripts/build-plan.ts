/**
 * The pure half of `pnpm demo`'s first build (scripts/build-in-order.ts): which packages may
 * start now, and the lines it prints. No I/O, so it is unit-tested
 * (examples/agent-demo/tests/build-plan.spec.ts).
 */

/** A workspace package and the workspace packages its build needs first. */
export interface BuildNode {
  readonly name: string
  readonly needs: readonly string[]
}

/** How many nodes need `name`, directly or through others: what finishing it unblocks. */
function dependentCount(nodes: readonly BuildNode[], name: string): number {
  const found = new Set<string>()
  const visit = (target: string) => {
    for (const node of nodes)
      if (node.needs.includes(target) && !found.has(node.name)) {
        found.add(node.name)
        visit(node.name)
      }
  }
  visit(name)
  return found.size
}

/**
 * The packages that may start now: not done, not running, every need done, at most
 * `slots - running.size` of them; those that unblock the most others first (then in `nodes`
 * order), so the long chain to the last package starts as early as it can. Throws on a dependency cycle or an unknown need, since
 * those would otherwise wait forever.
 */
export function readyToBuild(
  nodes: readonly BuildNode[],
  done: ReadonlySet<string>,
  running: ReadonlySet<string>,
  slots: number,
): string[] {
  const known = new Set(nodes.map((node) => node.name))
  for (const node of nodes) {
    const unknown = node.needs.find((need) => !known.has(need))
    if (unknown !== undefined) throw new Error(`${node.name} needs ${unknown}, which is not built here`)
  }
  const waiting = nodes.filter((node) => !done.has(node.name) && !running.has(node.name))
  const ready = waiting.filter((node) => node.needs.every((need) => done.has(need)))
  if (ready.length === 0 && running.size === 0 && waiting.length > 0)
    throw new Error(`dependency cycle among ${waiting.map((node) => node.name).join(', ')}`)
  const unblocks = new Map(ready.map((node) => [node.name, dependentCount(nodes, node.name)]))
  const first = [...ready].sort((a, b) => unblocks.get(b.name)! - unblocks.get(a.name)!)
  return first.slice(0, Math.max(0, slots - running.size)).map((node) => node.name)
}

/** Every package in an order that builds each after its needs (one slot at a time). */
export function buildOrder(nodes: readonly BuildNode[]): string[] {
  const done = new Set<string>()
  while (done.size < nodes.length) {
    const [next] = readyToBuild(nodes, done, new Set(), 1)
    done.add(next!)
  }
  return [...done]
}

const secondsText = (ms: number) => `${(ms / 1000).toFixed(1)} s`

/** `built @dsh/tools-schema in 12.3 s`, with `(turbo cache)` when turbo replayed a cached build. */
export function builtLine(name: string, ms: number, cached: boolean): string {
  return `built ${name} in ${secondsText(ms)}${cached ? ' (turbo cache)' : ''}`
}

/** `  … still building @dsh/tools-mcp (24 s), @dsh/tool-bash (9 s)`, for a quiet stretch. */
export function heartbeatLine(running: ReadonlyMap<string, number>, now: number): string {
  const parts = [...running].map(([name, since]) => `${name} (${Math.round((now - since) / 1000)} s)`)
  return `  … still building ${parts.join(', ')}`
}

/** `building 10 packages (tools-schema: no dist, …); each prints a line when it is built`. */
export function startLine(count: number, firstReason: string): string {
  const s = count === 1 ? '' : 's'
  return `building ${count} package${s} first (${firstReason}${count > 1 ? ', …' : ''}); each prints a line when built`
}

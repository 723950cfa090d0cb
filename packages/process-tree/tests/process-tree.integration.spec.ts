import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { ProcessTree } from '../src/index'

const started: ChildProcess[] = []
afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL')
})

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

async function until<T>(probe: () => T | undefined, what: string): Promise<T> {
  for (let waited = 0; waited < 10_000; waited += 10) {
    const value = probe()
    if (value !== undefined) return value
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error(`timed out waiting for ${what}`)
}

/** Start `script` under bash; resolves once it has `count` descendants. */
async function startTree(script: string, count: number, detached = false) {
  const child = spawn('bash', ['-c', script], { stdio: 'ignore', detached })
  started.push(child)
  const root = child.pid as number
  const tree = await until(() => {
    const found = new ProcessTree(root).collect()
    return found.pids.length >= count ? found : undefined
  }, `${count} descendants of ${root}`)
  return { child, root, tree }
}

describe('ProcessTree', () => {
  it('finds descendants at every depth and kills them after their root is gone', async () => {
    // A child in a session of its own, and a grandchild under a second shell.
    const { child, tree } = await startTree('setsid sleep 100 & bash -c "sleep 100 & wait" & wait', 3)
    const pids = tree.pids
    child.kill('SIGKILL')
    await until(
      () => (child.exitCode !== null || child.signalCode !== null ? true : undefined),
      'the root exit',
    )
    // Orphaned now: only the record still reaches them.
    expect(pids.filter(alive)).toHaveLength(pids.length)
    expect(tree.signal('SIGKILL')).toBe(pids.length)
    await until(() => (pids.some(alive) ? undefined : true), 'the orphans to die')
  })

  it('exceptGroup skips the processes still in that group', async () => {
    const { root, tree } = await startTree('sleep 100 & setsid sleep 100 & wait', 2, true)
    // `setsid` runs in the child a moment after the fork.
    await until(() => (tree.pids.some((pid) => groupOf(pid) !== root) ? true : undefined), 'the setsid')
    const inGroup = tree.pids.filter((pid) => groupOf(pid) === root)
    const outside = tree.pids.filter((pid) => groupOf(pid) !== root)
    expect([inGroup.length, outside.length]).toEqual([1, 1])
    expect(tree.signal('SIGKILL', { exceptGroup: root })).toBe(1)
    await until(() => (alive(outside[0] as number) ? undefined : true), 'the setsid child to die')
    expect(alive(inGroup[0] as number)).toBe(true)
    process.kill(-root, 'SIGKILL')
  })

  it('never signals a process that exited since it was recorded', async () => {
    const { child, tree } = await startTree('sleep 0.2 & wait', 1)
    await until(() => (child.exitCode !== null ? true : undefined), 'the tree to finish')
    expect(tree.signal('SIGKILL')).toBe(0)
  })

  it('a process without children, or one that does not exist, has none', () => {
    expect(new ProcessTree(process.pid).collect().pids.every((pid) => pid !== process.pid)).toBe(true)
    expect(new ProcessTree(2 ** 22 + 1).collect().pids).toEqual([])
  })
})

function groupOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2])
}

describe('ProcessTree bound to its root', () => {
  it('after the root exited a walk adds nothing, and what was recorded stays reachable', async () => {
    const { child, root, tree } = await startTree('sleep 100 & wait', 1)
    const recorded = tree.pids
    child.kill('SIGKILL')
    await until(
      () => (child.exitCode !== null || child.signalCode !== null ? true : undefined),
      'the root exit',
    )
    expect(tree.collect().pids).toEqual(recorded)
    expect(new ProcessTree(root).collect().pids).toEqual([])
    expect(tree.signal('SIGKILL')).toBe(1)
  })
})

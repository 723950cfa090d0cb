/**
 * The attack corpus of issue 10, each attack in a fresh host process (`fixtures/attack-host.ts`)
 * under a kill timeout: a crash or hang of the host is a failed test, never a crashed test
 * runner. Asserted for every attack and engine: the host process survives and reports, a normal
 * program still runs afterwards, the main thread never stalls past 200 ms, RSS stays within a
 * budget, and nothing outside the boundary (planted secrets, a file outside the workspace, a
 * hidden tool, a process) is reached.
 *
 * CI runs a subset — every attack on QuickJS, whose containment of the crash lines, off-heap
 * memory and the uninterruptible sort in thread isolation is the point of the engine, plus the
 * FinalizationRegistry escape on node:vm and one crash line under process isolation (each host
 * costs seconds of boot); `DSH_LONG=1` (or `DSH_CORPUS=full`) runs every attack on both engines. Attacks the node:vm
 * engine does not contain in a thread (see the README's trust posture) are skipped for it, saying
 * why, and asserted under `isolation: 'process'` instead.
 */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { CodeEngine } from '../src/index'
import type { AttackReport } from './fixtures/attack-host'
import { ATTACKS, type Attack } from './fixtures/attacks'
import { ENGINES, isNodeVmEngine } from './fixtures/engines'

const FULL = process.env.DSH_CORPUS === 'full' || process.env.DSH_LONG === '1'
const CI_SUBSET = 'not in the CI subset of the corpus (DSH_LONG=1 runs every attack on both engines)'
/** A host that has not reported by then is hung. */
const KILL_AFTER_MS = 120_000
const MAX_STALL_MS = 200
const RSS_BUDGET_MB = 384
const CONCURRENCY = 2

/** What node:vm in a worker thread of the host process does not contain (see the README). */
const NODE_VM_UNCONTAINED: Readonly<Record<string, string>> = {
  'crash line: new Array(2**27).fill(0)': 'a V8 fatal error in a worker thread aborts the host process',
  'crash line: getOwnPropertyNames of a huge typed array':
    'a V8 fatal error in a worker thread aborts the host process',
  'off-heap memory: 1.2 GB of ArrayBuffers': 'ArrayBuffer memory is outside the worker heap cap',
  'uninterruptible sort past computeMs': 'a running builtin cannot be terminated; its buffer is off-heap',
}

/** The one attack CI runs against node:vm: the escape its bootstrap was hardened against. */
const NODE_VM_CI_ATTACK = 'escape through a FinalizationRegistry callback and util.inspect'

const hostScript = fileURLToPath(new URL('./fixtures/attack-host.ts', import.meta.url))
const packageDir = fileURLToPath(new URL('..', import.meta.url))

interface HostExit {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly hung: boolean
  readonly report: AttackReport | undefined
  readonly stderr: string
}

let running = 0
const waiting: (() => void)[] = []
async function withSlot<T>(body: () => Promise<T>): Promise<T> {
  if (running >= CONCURRENCY) await new Promise<void>((resolve) => waiting.push(resolve))
  running += 1
  try {
    return await body()
  } finally {
    running -= 1
    waiting.shift()?.()
  }
}

function runHost(attack: Attack, engine: CodeEngine, isolation?: 'process'): Promise<HostExit> {
  return withSlot(
    () =>
      new Promise((resolve) => {
        const child = spawn(
          process.execPath,
          [
            '--import',
            'tsx',
            '--conditions=@dsh/source',
            hostScript,
            JSON.stringify({ attack: attack.name, engine, isolation }),
          ],
          { cwd: packageDir, stdio: ['ignore', 'pipe', 'pipe'] },
        )
        let stdout = ''
        let stderr = ''
        let hung = false
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          stdout += chunk
        })
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
          stderr = (stderr + chunk).slice(-4000)
        })
        const killer = setTimeout(() => {
          hung = true
          child.kill('SIGKILL')
        }, KILL_AFTER_MS)
        child.on('close', (code, signal) => {
          clearTimeout(killer)
          const line = stdout.split('\n').find((candidate) => candidate.startsWith('ATTACK_RESULT '))
          const report = line === undefined ? undefined : (JSON.parse(line.slice(14)) as AttackReport)
          resolve({ code, signal, hung, report, stderr })
        })
      }),
  )
}

function expectContained(exit: HostExit): void {
  expect(exit.hung, 'the host hung').toBe(false)
  expect({ code: exit.code, signal: exit.signal }, `the host died: ${exit.stderr.slice(-600)}`).toEqual({
    code: 0,
    signal: null,
  })
  const report = exit.report as AttackReport
  expect(report.reached, 'reached outside the boundary').toEqual([])
  expect(report.survivors, 'processes left running').toBe(0)
  expect(report.healthy, 'a normal program failed after the attack').toBe(true)
  expect(report.maxStallMs, 'main-thread stall (ms)').toBeLessThanOrEqual(MAX_STALL_MS)
  expect(report.peakRssDeltaMb, 'peak RSS growth (MiB)').toBeLessThanOrEqual(RSS_BUDGET_MB)
}

for (const engine of ENGINES) {
  describe(`attack corpus, engine ${engine}`, () => {
    for (const attack of ATTACKS) {
      const uncontained = isNodeVmEngine(engine) ? NODE_VM_UNCONTAINED[attack.name] : undefined
      if (uncontained !== undefined) {
        // Whether these show depends on how far the program gets within its time budget on the
        // machine at hand, so they are neither asserted nor expected to fail; the README
        // records what was measured.
        it(`${attack.name} (not contained by node:vm)`, (ctx) => {
          ctx.skip(
            `node:vm in a thread does not contain it (${uncontained}); asserted under isolation: 'process'`,
          )
        })
        continue
      }
      // CI: every attack on QuickJS; on node:vm only its own escape (the full corpus runs all).
      const run =
        FULL || (!isNodeVmEngine(engine) && attack.fullOnly !== true) || attack.name === NODE_VM_CI_ATTACK
      it(attack.name, { concurrent: true, timeout: 4 * KILL_AFTER_MS }, async (ctx) => {
        ctx.skip(!run, CI_SUBSET)
        expectContained(await runHost(attack, engine))
      })
    }
  })
}

describe('attack corpus, node:vm with isolation: process', () => {
  // What a worker thread cannot contain, a process of its own does: each such attack must now
  // end its run with the host alive and within its budgets.
  const engine: CodeEngine = 'node-vm'
  for (const attack of ATTACKS.filter((candidate) => NODE_VM_UNCONTAINED[candidate.name] !== undefined)) {
    const run = FULL || attack.name === 'crash line: new Array(2**27).fill(0)'
    it(attack.name, { concurrent: true, timeout: 4 * KILL_AFTER_MS }, async (ctx) => {
      ctx.skip(!run, CI_SUBSET)
      expectContained(await runHost(attack, engine, 'process'))
    })
  }
})

// Separate Node processes on one SQLite file (SPEC §13.2): a process suspends a call and is
// SIGKILLed, another resumes it after a person decided; a body SIGKILLed mid-run is recovered as
// OUTCOME_UNKNOWN, or rerun for an idempotent tool; two processes resuming one ticket at the same
// moment run the body once. Body runs are counted from outside, in a file each body appends to.
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Context } from '@deepseek-ai/cordis'
import { scriptCommand } from '@dsh/tools-codemode/testing'
import ToolRuntime from '@dsh/tools-core'
import SqliteToolStore from '@dsh/tools-store-sqlite'
import Database from 'better-sqlite3'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import ToolApprovals from '../src/index'
import { KEY } from './fixtures/approvals-runtime'

/**
 * How to start the worker: bundled with the sources it imports (`scriptCommand`, a fraction of
 * the start cost of `--import tsx`); better-sqlite3, a native addon, loads from the dependencies.
 */
const WORKER = await scriptCommand(fileURLToPath(new URL('./fixtures/approvals-worker.ts', import.meta.url)))
const dir = mkdtempSync(join(tmpdir(), 'dsh-approvals-processes-'))
let files = 0
const running = new Set<ChildProcess>()

afterEach(async () => {
  await Promise.all(
    [...running].map(async (child) => {
      if (child.exitCode === null && child.signalCode === null) {
        const exit = once(child, 'exit')
        child.kill('SIGKILL')
        await exit
      }
      running.delete(child)
    }),
  )
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

interface Worker {
  readonly child: ChildProcess
  waitFor(event: string): Promise<Record<string, unknown>>
  go(): void
  kill(): Promise<void>
}

function start(args: string[]): Worker {
  const child = spawn(process.execPath, [...WORKER, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  running.add(child)
  const events: Record<string, unknown>[] = []
  const waiters = new Set<() => void>()
  let stderr = ''
  let buffered = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  child.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString()
    const lines = buffered.split('\n')
    buffered = lines.pop() ?? ''
    for (const line of lines) if (line.trim() !== '') events.push(JSON.parse(line))
    for (const waiter of waiters) waiter()
  })
  child.on('exit', () => {
    for (const waiter of waiters) waiter()
  })
  return {
    child,
    go: () => child.stdin?.write('go\n'),
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`worker ${args[0]} exited on its own: ${stderr}`)
      const exit = once(child, 'exit')
      child.kill('SIGKILL')
      await exit
    },
    waitFor: (event) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find((candidate) => candidate['event'] === event)
          if (found !== undefined) {
            waiters.delete(check)
            resolve(found)
          } else if (child.exitCode !== null || child.signalCode !== null) {
            waiters.delete(check)
            reject(new Error(`worker ${args[0]} exited before "${event}": ${stderr}`))
          }
        }
        waiters.add(check)
        check()
      }),
  }
}

function paths() {
  files++
  return { db: join(dir, `tools-${files}.db`), counter: join(dir, `bodies-${files}.txt`) }
}

function bodyRuns(counter: string): number {
  return existsSync(counter) ? readFileSync(counter, 'utf8').split('\n').filter(Boolean).length : 0
}

/** The reviewer's side, in this process: the same file, the same key. */
async function decide(db: string, ticket: string, approve: boolean) {
  const ctx = new Context()
  await ctx.plugin(SqliteToolStore, { path: db, busyTimeoutMs: 20_000 })
  await ctx.plugin(ToolRuntime)
  await ctx.plugin(ToolApprovals, { signingKey: KEY })
  await ctx.approvals.decide(ticket, { approve, by: 'ana' })
  await ctx.fiber.dispose()
}

/** A process suspends `deploy` and is SIGKILLed; its ticket is approved. */
async function suspendedAndApproved(db: string, counter: string, idempotent = false): Promise<string> {
  const asker = start(['suspend', db, counter, '-', '0', String(idempotent)])
  const pending = await asker.waitFor('pending')
  expect(pending['code']).toBe('APPROVAL_PENDING')
  await asker.kill()
  const ticket = pending['ticket'] as string
  await decide(db, ticket, true)
  return ticket
}

async function resumeIn(worker: Worker) {
  await worker.waitFor('ready')
  worker.go()
  return (await worker.waitFor('result'))['result'] as {
    isError: boolean
    value?: unknown
    error?: { info?: { code?: string } }
  }
}

describe('separate processes on one SQLite file', () => {
  it('one process suspends and is SIGKILLed; another resumes after the decision; a third gets the stored result', async () => {
    const { db, counter } = paths()
    const ticket = await suspendedAndApproved(db, counter)
    expect(bodyRuns(counter)).toBe(0)
    const first = await resumeIn(start(['resume', db, counter, ticket, '0', 'false']))
    expect(first).toMatchObject({ isError: false, value: 'deployed prod' })
    expect(bodyRuns(counter)).toBe(1)
    const later = await resumeIn(start(['resume', db, counter, ticket, '0', 'false']))
    expect(later).toEqual(first)
    expect(bodyRuns(counter)).toBe(1)
  })

  it('two processes resume one ticket at the same moment: the body runs once, both get its result', async () => {
    const { db, counter } = paths()
    const ticket = await suspendedAndApproved(db, counter)
    const racers = [0, 1].map(() => start(['resume', db, counter, ticket, '200', 'false']))
    await Promise.all(racers.map((racer) => racer.waitFor('ready')))
    for (const racer of racers) racer.go()
    const results = await Promise.all(racers.map(async (racer) => (await racer.waitFor('result'))['result']))
    expect(bodyRuns(counter)).toBe(1)
    expect(results[0]).toMatchObject({ isError: false, value: 'deployed prod' })
    expect(results[1]).toEqual(results[0])
  })

  it('a body SIGKILLed mid-run: recovery ends OUTCOME_UNKNOWN and never runs it again', async () => {
    const { db, counter } = paths()
    const ticket = await suspendedAndApproved(db, counter)
    const doomed = start(['resume', db, counter, ticket, '-1', 'false'])
    await doomed.waitFor('ready')
    doomed.go()
    await doomed.waitFor('body')
    await doomed.kill()
    const recovered = await resumeIn(start(['resume', db, counter, ticket, '0', 'false']))
    expect(recovered).toMatchObject({ isError: true, error: { info: { code: 'OUTCOME_UNKNOWN' } } })
    const again = await resumeIn(start(['resume', db, counter, ticket, '0', 'false']))
    expect(again).toEqual(recovered)
    expect(bodyRuns(counter)).toBe(1)
  })

  it('a body SIGKILLed mid-run: an idempotent tool runs again, once', async () => {
    const { db, counter } = paths()
    const ticket = await suspendedAndApproved(db, counter, true)
    const doomed = start(['resume', db, counter, ticket, '-1', 'true'])
    await doomed.waitFor('ready')
    doomed.go()
    await doomed.waitFor('body')
    await doomed.kill()
    const recovered = await resumeIn(start(['resume', db, counter, ticket, '0', 'true']))
    expect(recovered).toMatchObject({ isError: false, value: 'deployed prod' })
    expect(bodyRuns(counter)).toBe(2)
    const again = await resumeIn(start(['resume', db, counter, ticket, '0', 'true']))
    expect(again).toEqual(recovered)
    expect(bodyRuns(counter)).toBe(2)
  })

  it('a record altered in the database (arguments rewritten by SQL) is refused as APPROVAL_INVALID; nothing runs', async () => {
    const { db, counter } = paths()
    const ticket = await suspendedAndApproved(db, counter)
    const raw = new Database(db)
    try {
      const row = raw.prepare('SELECT data FROM tool_records WHERE key = ?').get(ticket) as { data: string }
      const data = JSON.parse(row.data)
      data.arguments = { target: 'everything' }
      raw.prepare('UPDATE tool_records SET data = ? WHERE key = ?').run(JSON.stringify(data), ticket)
    } finally {
      raw.close()
    }
    const result = await resumeIn(start(['resume', db, counter, ticket, '0', 'false']))
    expect(result).toMatchObject({ isError: true, error: { info: { code: 'APPROVAL_INVALID' } } })
    expect(bodyRuns(counter)).toBe(0)
  })
})

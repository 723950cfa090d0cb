/**
 * Exactly-once claims across processes: four Node processes, each with its own pool, race to
 * claim the same 200 records through one conditional UPDATE each. Wins are counted from outside
 * (the processes' reports) and checked against the table.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openStore } from './support/open-store'
import { type TestPostgres, testPostgres } from './support/postgres-server'
import { collect, spawnFixture, waitForLine } from './support/spawn-fixture'

const RECORDS = 200
const PROCESSES = 4

let pg: TestPostgres
beforeAll(async () => {
  pg = await testPostgres('claims')
})
afterAll(() => pg.dispose())

describe('claims across processes', () => {
  it('4 processes racing on 200 records: every record is claimed exactly once', {
    timeout: 120_000,
  }, async () => {
    const keys = Array.from({ length: RECORDS }, (_, i) => `ticket-${String(i).padStart(3, '0')}`)
    const { store, close } = await openStore({ connectionString: pg.connectionString, schema: pg.schema })
    const racers: ChildProcessWithoutNullStreams[] = []
    try {
      for (const key of keys)
        await store.create({
          kind: 'approval',
          agent: 'race',
          key,
          state: 'pending',
          data: '{}',
          createdAt: 1,
          expiresAt: Date.now() + 3_600_000,
        })
      for (let i = 0; i < PROCESSES; i++)
        racers.push(await spawnFixture('claim-racer.ts', [pg.connectionString, pg.schema, `p${i}`, ...keys]))
      const outputs = racers.map(collect)
      await Promise.all(racers.map((child) => waitForLine(child, 'ready')))
      const started = performance.now()
      for (const child of racers) child.stdin.write('go\n')
      const results = await Promise.all(outputs)
      const elapsedMs = performance.now() - started
      for (const result of results) expect(result, result.stderr).toMatchObject({ code: 0 })

      const claimedBy = new Map<string, string[]>()
      let lost = 0
      let slowest = 0
      results.forEach((result, i) => {
        for (const line of result.stdout.split('\n')) {
          if (line.startsWith('claimed '))
            claimedBy.set(line.slice(8), [...(claimedBy.get(line.slice(8)) ?? []), `p${i}`])
          if (line.startsWith('lost ')) lost += Number(line.slice(5))
          if (line.startsWith('elapsed ')) slowest = Math.max(slowest, Number(line.slice(8)))
        }
      })
      // Every record reported won exactly once, and the table agrees on who won it.
      expect([...claimedBy.keys()].sort()).toEqual(keys)
      expect([...claimedBy.values()].every((owners) => owners.length === 1)).toBe(true)
      const stored = await store.list({ kind: 'approval', agent: 'race' })
      expect(stored).toHaveLength(RECORDS)
      for (const record of stored) {
        expect(record).toMatchObject({ state: 'running', version: 2 })
        expect(record.lease?.owner).toBe(claimedBy.get(record.key)?.[0])
      }
      const perProcess = racers.map((_, i) => [...claimedBy.values()].filter(([o]) => o === `p${i}`).length)
      console.info(
        `claims: ${RECORDS} records, ${PROCESSES} processes, won per process ${perProcess.join('/')}, ` +
          `lost races ${lost}, claiming ${slowest} ms (slowest process), ${Math.round(elapsedMs)} ms to all exited (${pg.source})`,
      )
    } finally {
      for (const child of racers) if (child.exitCode === null) child.kill('SIGKILL')
      await close()
    }
  })
})

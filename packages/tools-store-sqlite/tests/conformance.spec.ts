// The SQLite store passes the store conformance kit (SPEC §13.1) on real files: durable,
// migrating from schema version 1, and failing closed when the file cannot be opened.
import { writeFileSync } from 'node:fs'
import { storeConformanceCases } from '@dsh/tools-core'
import { afterAll, describe, it } from 'vitest'
import { openStore, sqliteHarness, tempDirectory } from './fixtures/sqlite-files'

const files = tempDirectory('sqlite-conformance')
afterAll(() => files.remove())

describe('SqliteToolStore conformance', () => {
  for (const c of storeConformanceCases(sqliteHarness(files))) it(c.name, () => c.run())
})

describe('SqliteToolStore conformance, unreachable as a file that is not a database', () => {
  const notADatabase = files.file('not-a-database')
  writeFileSync(notADatabase, 'this is a text file, not SQLite\n'.repeat(200))
  const harness = { ...sqliteHarness(files), openUnreachable: () => openStore({ path: notADatabase }) }
  for (const c of storeConformanceCases(harness).filter((c) => c.name.includes('unreachable'))) {
    it(c.name, () => c.run())
  }
})

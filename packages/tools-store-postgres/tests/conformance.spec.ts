// PostgresToolStore passes the store conformance kit (SPEC §13.1) on the test server: every
// open() is a new plugin with its own pool on the same schema, as another process would be.
import { type StoreConformanceHarness, storeConformanceCases } from '@dsh/tools-core'
import { afterAll, describe, it } from 'vitest'
import { seedLegacySchema } from './support/legacy-schema'
import { openStore } from './support/open-store'
import { testPostgres } from './support/postgres-server'
import { closedPort } from './support/tcp-proxy'

describe('PostgresToolStore conformance', async () => {
  const pg = await testPostgres('conformance')
  afterAll(() => pg.dispose())
  let schema = pg.schema
  const harness: StoreConformanceHarness = {
    durable: true,
    open: () => openStore({ connectionString: pg.connectionString, schema }),
    async seedLegacy(records) {
      // A fresh schema at version 1; the next open() migrates it.
      schema = pg.newSchema()
      await seedLegacySchema(pg.connectionString, schema, records)
    },
    async openUnreachable() {
      return openStore({ connectionString: `postgres://dsh:secret@127.0.0.1:${await closedPort()}/tools` })
    },
  }
  for (const c of storeConformanceCases(harness)) it(c.name, () => c.run())
})

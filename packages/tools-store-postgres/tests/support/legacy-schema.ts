/** Writes records in the store's previous layout (schema version 1: no lease columns). */
import type { NewStoredRecord } from '@dsh/tools-core'
import pg from 'pg'
import { migrateStoreSchema, storeTables } from '../../src/store-schema'

export async function seedLegacySchema(
  connectionString: string,
  schema: string,
  records: readonly NewStoredRecord[],
): Promise<void> {
  const client = new pg.Client({ connectionString })
  await client.connect()
  try {
    const tables = storeTables(schema)
    await client.query('BEGIN')
    await migrateStoreSchema(client, tables, 1)
    for (const record of records) {
      if (record.lease !== undefined) throw new Error('schema version 1 has no leases')
      await client.query(
        `INSERT INTO ${tables.records} (kind, agent, key, state, version, data, created_at, updated_at, expires_at)
         VALUES ($1, $2, $3, $4, 1, $5, $6, $6, $7)`,
        [
          record.kind,
          record.agent,
          record.key,
          record.state,
          record.data,
          record.createdAt,
          record.expiresAt,
        ],
      )
    }
    await client.query('COMMIT')
  } finally {
    await client.end()
  }
}

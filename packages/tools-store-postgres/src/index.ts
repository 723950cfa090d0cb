// Public API of @dsh/tools-store-postgres. Explicit named re-exports only; no logic here.
export {
  checkPostgresToolStoreConfig,
  DEFAULT_POSTGRES_STORE_CONFIG,
  type PostgresConnectionStringConfig,
  type PostgresPoolConfig,
  type PostgresToolStoreConfig,
  PostgresToolStoreConfigSchema,
  type ResolvedPostgresConnectionStringConfig,
  type ResolvedPostgresPoolConfig,
  type ResolvedPostgresToolStoreConfig,
} from './config'
export { PostgresToolStore, PostgresToolStore as default } from './postgres-tool-store'
export { STORE_SCHEMA_VERSION } from './store-schema'

// Public API of @dsh/tools-store-sqlite. Explicit named re-exports only; no logic here.
import { SqliteToolStore } from './sqlite-tool-store'

export {
  checkSqliteToolStoreConfig,
  DEFAULT_BUSY_TIMEOUT_MS,
  resolveSqliteToolStoreConfig,
  type SqliteToolStoreConfig,
  SqliteToolStoreConfigError,
  type SqliteToolStoreConfigInput,
  SqliteToolStoreConfigSchema,
} from './config'
export { SCHEMA_VERSION } from './schema'
export { SqliteToolStore }
export default SqliteToolStore

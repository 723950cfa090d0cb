/** Opens a PostgresToolStore the way an application does: a cordis context and the plugin. */
import { Context } from '@deepseek-ai/cordis'
import type { ToolStateStore } from '@dsh/tools-core'
import PostgresToolStore, { type PostgresToolStoreConfig } from '../../src/index'

/** A store plugged into its own context; `close()` disposes the context (and the pool it owns). */
export interface OpenedPostgresStore {
  readonly store: ToolStateStore & { ready(): Promise<void> }
  close(): Promise<void>
}

export async function openStore(config: PostgresToolStoreConfig): Promise<OpenedPostgresStore> {
  const ctx = new Context()
  await ctx.plugin(PostgresToolStore, config)
  return { store: ctx.toolStore as OpenedPostgresStore['store'], close: () => ctx.fiber.dispose() }
}

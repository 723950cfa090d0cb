import type { FsToolsConfig } from './config'
import { PathGuard } from './path-guard'
import { ReadTracker } from './read-tracker'

/** What every fs tool shares within one plugin instance. */
export interface FsToolContext {
  readonly config: FsToolsConfig
  readonly guard: PathGuard
  readonly tracker: ReadTracker
}

/**
 * Build the shared state of one plugin instance: canonical roots and an empty read tracker.
 * @throws {FsToolError} `INVALID_CONFIG` when a root does not exist.
 */
export function createFsToolContext(config: FsToolsConfig): FsToolContext {
  return { config, guard: new PathGuard(config.roots), tracker: new ReadTracker() }
}

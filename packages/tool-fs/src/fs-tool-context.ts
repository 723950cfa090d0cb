import type { FsToolsConfig } from './config'
import { GrepWorkerPool } from './grep/grep-worker-pool'
import { PathGuard } from './path-guard'
import { ReadTracker } from './read-tracker'

/** What every fs tool shares within one plugin instance. */
export interface FsToolContext {
  readonly config: FsToolsConfig
  readonly guard: PathGuard
  readonly tracker: ReadTracker
  /** Worker threads `grep` matches on; closed with the plugin. */
  readonly grepWorkers: GrepWorkerPool
}

/**
 * Build the shared state of one plugin instance: canonical roots, an empty read tracker and an
 * (empty, lazily filled) grep worker pool.
 * @throws {FsToolError} `INVALID_CONFIG` when a root does not exist.
 */
export function createFsToolContext(config: FsToolsConfig): FsToolContext {
  return {
    config,
    guard: new PathGuard(config.roots),
    tracker: new ReadTracker(),
    grepWorkers: new GrepWorkerPool(),
  }
}

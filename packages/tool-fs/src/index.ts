// Public API of @dsh/tool-fs: the plugin, its config, and what a caller of the five tools reads
// or branches on. Everything else (the path guard, atomic writes, the search worker, …) is
// internal; `tests/public-surface.spec.ts` pins this list. Explicit named re-exports only.
export { Config, type FsToolsConfigInput } from './config'
export { FS_TOOL_ERROR_CODES, type FsToolErrorCode } from './errors'
export type { FsToolValues } from './fs-tool-values'
export { apply, inject, name } from './plugin'

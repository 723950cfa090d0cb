// Public API of @dsh/tool-fs. Explicit named re-exports only; no logic here.
export { type AtomicWriteOptions, writeFileAtomic } from './atomic-write'
export {
  Config,
  FS_TOOLS_DEFAULTS,
  type FsToolsConfig,
  type FsToolsConfigInput,
  type FsToolsConfigIssue,
  type FsToolsConfigResult,
  type FsToolsConfigSchema,
  resolveFsToolsConfig,
  validateFsToolsConfig,
} from './config'
export { FS_TOOL_ERROR_CODES, FsToolError, type FsToolErrorCode } from './errors'
export type { FileChange } from './file-diff'
export { type OpenedFile, PathGuard, type ResolvedPath } from './path-guard'
export { apply, createFsTools, inject, name } from './plugin'
export type { EditValue } from './tools/edit-tool'
export type { GlobValue } from './tools/glob-tool'
export type { GrepValue } from './tools/grep-tool'
export type { ReadValue } from './tools/read-tool'
export type { WriteValue } from './tools/write-tool'

import type { EditValue } from './tools/edit-tool'
import type { GlobValue } from './tools/glob-tool'
import type { GrepValue } from './tools/grep-tool'
import type { ReadValue } from './tools/read-tool'
import type { WriteValue } from './tools/write-tool'

/**
 * The canonical value (`result.value`) of each fs tool, by tool name: `FsToolValues['read']` is
 * what a successful `read` call returns (its output schema's shape; the README's Tools section
 * describes each field).
 */
export interface FsToolValues {
  readonly read: ReadValue
  readonly write: WriteValue
  readonly edit: EditValue
  readonly glob: GlobValue
  readonly grep: GrepValue
}

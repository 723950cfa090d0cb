// Public API of @dsh/tool-bash: the plugin, its config, and what a caller of the `bash` tool
// reads or branches on. Everything else (output capture, process groups, the sandbox) is
// internal; `tests/public-surface.spec.ts` pins this list. Explicit named re-exports only.
export type { BashArgs, BashResult } from './bash-result'
export { BASH_TOOL_NAME } from './bash-tool'
export { type BashConfigInput, Config } from './config'
export { BASH_ERROR_CODES } from './errors'
export { apply, inject, name } from './plugin'

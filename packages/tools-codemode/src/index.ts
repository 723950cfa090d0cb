// Public API of @dsh/tools-codemode. Explicit named re-exports only; no logic here.
// Bridge, pool, transport factory and section builders are internal: the plugin wires them.
export type {
  CodeLanguage,
  CodeRunFailureKind,
  CodeRunHost,
  CodeRunOutcome,
  CodeRunReads,
  CodeRunRequest,
  CodeRuntime,
} from './code-runtime'
export type { CodeModeConfig } from './config'
export {
  CODE_MODE_ERROR_CODES,
  CodeRunFailedError,
  CodeRuntimeMissingError,
  ToolCallError,
  UnsupportedCodeLanguageError,
} from './errors'
export type { CodeDispatchResult, CodeDispatchStart } from './events'
export { apply, Config, inject, name } from './plugin'
export type { RunCodeOutput } from './render-output'
export { renderPythonSdk } from './sdk/python'
export { renderTypeScriptSdk } from './sdk/typescript'
export type { RunCodeArgs } from './transport'

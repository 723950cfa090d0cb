// Public API of @dsh/tools-codemode. Explicit named re-exports only; no logic here.
export { type BridgeEnvironment, bindingNames, CodeRunBridge, runThroughBridge } from './bridge'
export type { DispatchEventName, DispatchEventPort, ToolRuntimePort } from './bridge-ports'
export type {
  CodeLanguage,
  CodeRunFailureKind,
  CodeRunHost,
  CodeRunOutcome,
  CodeRunRequest,
  CodeRuntime,
} from './code-runtime'
export { type CodeModeConfig, CodeModeConfigSchema, DEFAULT_CODE_MODE_CONFIG } from './config'
export { type DispatchJob, DispatchPool } from './dispatch-pool'
export {
  CODE_MODE_ERROR_CODES,
  CodeRunFailedError,
  ToolCallError,
  UnsupportedCodeLanguageError,
} from './errors'
export type { CodeDispatchResult, CodeDispatchStart } from './events'
export { apply, Config, inject, name } from './plugin'
export {
  EMPTY_RUN_OUTPUT_TEXT,
  MAX_RESULT_INDENT,
  type RunCodeOutput,
  renderResultJson,
  renderRunCodeOutput,
} from './render-output'
export { executeRunCode } from './run-code'
export { renderPythonSdk } from './sdk/python'
export {
  CODE_ONLY_RULE_TEXT,
  CODE_ONLY_SECTION,
  type CodeModeSectionsInput,
  codeModeSections,
  SDK_SECTION,
  type SdkRenderer,
  sdkRendererFor,
} from './sdk/sections'
export { renderTypeScriptSdk } from './sdk/typescript'
export { PYTHON_USAGE_NOTES, TYPESCRIPT_USAGE_NOTES } from './sdk/usage-notes'
export {
  createRunCodeTransport,
  RUN_CODE_OUTPUT_SCHEMA,
  type RunCodeArgs,
  type RunCodeTransportOptions,
  runCodeParameters,
} from './transport'

// Public API of @dsh/tool-bash. Explicit named re-exports only; no logic here.
export { BASH_PARAMETERS, BASH_RESULT_SCHEMA, type BashArgs, type BashResult } from './bash-result'
export { BASH_TOOL_NAME, type CreateBashToolOptions, createBashTool, effectiveTimeoutMs } from './bash-tool'
export {
  BASH_CONFIG_DEFAULTS,
  type BashConfig,
  type BashConfigInput,
  Config,
  resolveBashConfig,
} from './config'
export { buildEnvironment, DEFAULT_ENV_ALLOW_LIST, isAllowedEnvName, isCredentialName } from './environment'
export { BASH_ERROR_CODES, BashProtectionError, BashSandboxUnavailableError, BashSpawnError } from './errors'
export { killProcessGroup } from './kill-process-group'
export { type CapturedOutput, OutputCapture, truncationMarker } from './output-capture'
export { apply, inject, name } from './plugin'
export {
  type BashPresentationMeta,
  bashPresentationMeta,
  presentBashCall,
  presentBashResult,
  renderBashContent,
  renderBashText,
  resolveCallWorkdir,
} from './present'
export { PROTECTED_NAMES } from './protection/protected-names'
export {
  type CommandOutcome,
  type CommandRequest,
  type CommandWrapper,
  type OutputStream,
  type RunCommandOptions,
  runCommand,
  type SpawnedProcess,
  type SpawnPlan,
} from './run-command'
export {
  type BashSandboxConfig,
  type BashSandboxInput,
  DEFAULT_MAX_SCAN_ENTRIES,
  resolveSandboxConfig,
} from './sandbox-config'
export { probeSandbox, SANDBOX_UNAVAILABLE_ENV, type SandboxAvailability } from './sandbox-probe'
export { createSandboxWrapper, type SandboxPolicy } from './sandbox-wrapper'

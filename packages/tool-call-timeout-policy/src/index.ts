// Public API of @dsh/tool-call-timeout-policy. Explicit named re-exports only; no logic here.
export { type Deadline, startDeadline } from './deadline'
export {
  apply,
  Config,
  inject,
  name,
  type TimeoutPolicyConfig,
} from './plugin'
export { createTimeoutWrapper, type TimeoutWrapperOptions, type ToolExecuteWrapper } from './timeout-wrapper'

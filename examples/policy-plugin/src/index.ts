// Public API of the example policy plugin: `ctx.plugin(policy, config)` after
// `import * as policy from '@dsh/example-policy-plugin'`.
export {
  type ApprovalRule,
  DEFAULT_SECRET_PATTERNS,
  type PolicyConfig,
  type PolicyConfigInput,
  validatePolicyConfig,
} from './config'
export { apply, Config, inject, name } from './plugin'
export { redactContent, redactJson, redactText } from './redact'
export { type ApprovalRecord, argumentString, matchRule, RuleApproval } from './rule-approval'

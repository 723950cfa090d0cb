// Public API of the example policy plugin: the plugin, its config and its approval service;
// the redaction and rule matching stay internal (`tests/public-surface.spec.ts` pins this list).
// `ctx.plugin(policy, config)` after `import * as policy from '@dsh/example-policy-plugin'`.
export { type ApprovalRule, DEFAULT_SECRET_PATTERNS, type PolicyConfigInput } from './config'
export { apply, Config, inject, name } from './plugin'
export { type ApprovalRecord, RuleApproval } from './rule-approval'

// Public API of @dsh/tool-approvals. Explicit named re-exports only; no logic here.
export type { ApprovalDecisionInput, ApprovalQuery } from './approval-book'
export type { ApprovalView } from './approval-view'
export { Config, DEFAULT_LEASE_MS, DEFAULT_TTL_MS, type ToolApprovalsConfig } from './config'
export { ApprovalDecisionError } from './errors'
export { default, default as ToolApprovals } from './tool-approvals'

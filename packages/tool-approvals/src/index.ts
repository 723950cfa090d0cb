// Public API of @dsh/tool-approvals: the plugin (a default-exported Service), its config, and
// the types of the approval service. `tests/public-surface.spec.ts` pins this list. Explicit
// named re-exports only.
export type { ApprovalDecisionInput, ApprovalQuery } from './approval-book'
export type { ApprovalView } from './approval-view'
export { Config, type ToolApprovalsConfig } from './config'
export { ApprovalDecisionError } from './errors'
export { default, default as ToolApprovals } from './tool-approvals'

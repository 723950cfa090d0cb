// Public API of @dsh/tools-ai-sdk. Explicit named re-exports only; no logic here.

export {
  type AiSdkApprovalRequest,
  type AiSdkToolApproval,
  aiSdkToolApproval,
} from './ai-sdk-tool-approval'
export type { AiSdkTool } from './ai-sdk-tool-definition'
export { AiSdkToolError } from './ai-sdk-tool-error'
export { aiSdkTools } from './ai-sdk-tools'
export { isApprovalCheck } from './policy-probe'
export { registerAiSdkTools } from './register-ai-sdk-tools'
export type { AiSdkOptions, AiSdkToolDone, AiSdkToolOutput, AiSdkToolProgress } from './types'

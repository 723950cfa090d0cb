import type { Context } from '@deepseek-ai/cordis'
import type { ModelMessage, ToolApprovalStatus, ToolSet } from 'ai'
import { agentOf, pipelineTools } from './ai-sdk-tools'
import { probePolicy } from './policy-probe'
import type { AiSdkOptions } from './types'

/** What ai 7 hands a generic `toolApproval` function (the parts this one reads). */
export interface AiSdkApprovalRequest {
  readonly toolCall: { readonly toolCallId: string; readonly toolName: string; readonly input: unknown }
  readonly tools: ToolSet | undefined
  readonly messages: ModelMessage[]
}

/** The value for ai 7's `toolApproval` option: a generic approval function. */
export type AiSdkToolApproval = (request: AiSdkApprovalRequest) => Promise<ToolApprovalStatus>

/**
 * The value for ai 7's `toolApproval` option (its recommended route for approvals): a call of a
 * tool from `aiSdkTools` that the `tools/pre-execute` policy answers with `ask` becomes the AI
 * SDK's tool-approval request (`user-approval`, with the policy's reason). Approve it the AI
 * SDK's way — append a `tool` message with a `tool-approval-response` and call `generateText` /
 * `streamText` again — and the call runs through the pipeline exactly once, its `ask` answered;
 * a denial is the AI SDK's `execution-denied` and nothing runs. Every other call of ours is
 * `not-applicable` (the pipeline decides: a `deny` ends `DENIED`). Tools from elsewhere in the
 * same `ToolSet` keep their own `needsApproval`, as the AI SDK would apply it.
 *
 * Pass the same `ctx` and `agent` as to `aiSdkTools`: the check asks that view's policy. (Were
 * they to differ, the pipeline still asks at the gate: the call ends denied, or
 * `APPROVAL_PENDING` with a durable approval service — it never runs unapproved.)
 */
export function aiSdkToolApproval(ctx: Context, options?: AiSdkOptions): AiSdkToolApproval {
  const agent = agentOf(ctx, options)
  return async ({ toolCall, tools, messages }) => {
    const tool =
      tools !== undefined && Object.hasOwn(tools, toolCall.toolName) ? tools[toolCall.toolName] : undefined
    if (tool === undefined) return 'not-applicable'
    if (!pipelineTools.has(tool)) return foreignApproval(tool, toolCall, messages)
    const answer = await probePolicy(ctx, agent, toolCall)
    if (answer === undefined) return 'not-applicable'
    return answer.reason === undefined ? 'user-approval' : { type: 'user-approval', reason: answer.reason }
  }
}

/** A tool `aiSdkTools` did not build: its own `needsApproval`, as `resolveToolApproval` applies it. */
async function foreignApproval(
  tool: ToolSet[string],
  toolCall: AiSdkApprovalRequest['toolCall'],
  messages: ModelMessage[],
): Promise<ToolApprovalStatus> {
  const needs = tool.needsApproval
  if (needs === undefined) return 'not-applicable'
  const verdict =
    typeof needs === 'function'
      ? await needs(toolCall.input as never, {
          toolCallId: toolCall.toolCallId,
          messages,
          context: undefined,
        })
      : needs
  return verdict ? 'user-approval' : 'not-applicable'
}

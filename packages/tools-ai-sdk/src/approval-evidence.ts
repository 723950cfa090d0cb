import type { ModelMessage } from 'ai'

/**
 * The id of the granted approval that `messages` (what the AI SDK hands a tool's `execute`) hold for the
 * call `toolCallId` of tool `toolName`, read by the AI SDK's own rule (`collectToolApprovals`):
 * the last message is a `tool` message with an approving `tool-approval-response`, whose
 * `tool-approval-request` in an assistant message names this call, whose `tool-call` names this
 * tool. That is exactly the situation in which the AI SDK runs an approved call; a fresh call in
 * a later step never sees it, since the step's own tool results come last there.
 */
export function approvalInMessages(
  messages: readonly ModelMessage[] | undefined,
  toolCallId: string,
  toolName: string,
): string | undefined {
  const last = messages?.at(-1)
  if (messages === undefined || last?.role !== 'tool') return undefined
  const granted = new Set<string>()
  for (const part of last.content) {
    if (part.type === 'tool-approval-response' && part.approved === true) granted.add(part.approvalId)
  }
  if (granted.size === 0) return undefined
  let requested: string | undefined
  let named = false
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue
    for (const part of message.content) {
      if (part.type === 'tool-call' && part.toolCallId === toolCallId) named = part.toolName === toolName
      else if (
        part.type === 'tool-approval-request' &&
        part.toolCallId === toolCallId &&
        granted.has(part.approvalId)
      )
        requested = part.approvalId
    }
  }
  return named ? requested : undefined
}

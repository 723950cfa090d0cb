/**
 * The model seam of the demo loop: whatever produces the next assistant turn from the
 * conversation so far. The scripted model and the optional OpenAI-compatible adapter both
 * implement it, so the loop cannot tell them apart.
 */
import type { JsonValue, NativeToolSpec } from '@dsh/tools-core'

/** One tool call the model asked for. `arguments` is already parsed JSON. */
export interface ToolCallRequest {
  readonly id: string
  readonly name: string
  readonly arguments: JsonValue
}

/** The conversation, in the shape every chat API shares. */
export type ChatMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string; readonly toolCalls: readonly ToolCallRequest[] }
  | {
      readonly role: 'tool'
      readonly toolCallId: string
      readonly name: string
      readonly content: string
      readonly isError: boolean
    }

/** What the loop sends the model each turn. */
export interface ModelRequest {
  readonly messages: readonly ChatMessage[]
  /** The native function definitions the presentation mode contributes (`run_code` only in Code Mode). */
  readonly tools: readonly NativeToolSpec[]
}

/** The model's answer: some text and zero or more tool calls. No tool calls ends the loop. */
export interface AssistantTurn {
  readonly text: string
  readonly toolCalls: readonly ToolCallRequest[]
}

/** Anything that can play the assistant. */
export interface Model {
  readonly name: string
  next(request: ModelRequest, signal: AbortSignal): Promise<AssistantTurn>
}

/**
 * The loop's side of talking to a model: keep the conversation in some wire format, turn the
 * model's answer into calls to run, and write their results back. The demo's own chat shape
 * (`ChatConversation`) is the default; `WireConversation` speaks each provider's wire format, so the
 * same loop runs the same scripted turns through `@dsh/tools-providers`.
 */
import type { JsonValue, NativeToolSpec, ToolExecutionInput, ToolExecutionResult } from '@dsh/tools-core'
import { contentText } from './content-text'
import type { ChatMessage, Model, ToolCallRequest } from './model'

/** One call of a turn: what the cards show (`arguments` as the model sent them) and what runs. */
export interface LoopCall extends ToolCallRequest {
  /** The pipeline input, without `signal` and `agent` (the loop adds them). */
  readonly input: Omit<ToolExecutionInput, 'signal' | 'agent'>
}

/** The model's answer: text and the calls to run (none ends the loop). */
export interface ConversationTurn {
  readonly text: string
  readonly calls: readonly LoopCall[]
}

/** A conversation with a model in one wire format. */
export interface Conversation {
  /** The model's name, for the report. */
  readonly model: string
  /** The conversation so far, read as chat messages. */
  readonly messages: readonly ChatMessage[]
  /** The conversation in the provider's wire format, when it has one of its own. */
  readonly wire?: readonly Record<string, unknown>[]
  /** The model's next turn, offered `tools` (the assembly's native definitions). */
  next(tools: readonly NativeToolSpec[], signal: AbortSignal): Promise<ConversationTurn>
  /** Append the results of `turn`'s calls (same order), with their additional contexts. */
  answer(turn: ConversationTurn, results: readonly ToolExecutionResult[]): void
}

/** The demo's own chat shape over a {@link Model}: what the loop always did. */
export class ChatConversation implements Conversation {
  readonly model: string
  readonly messages: ChatMessage[]

  constructor(
    private readonly chat: Model,
    system: string,
    task: string,
  ) {
    this.model = chat.name
    this.messages = [
      { role: 'system', content: system },
      { role: 'user', content: task },
    ]
  }

  async next(tools: readonly NativeToolSpec[], signal: AbortSignal): Promise<ConversationTurn> {
    const reply = await this.chat.next({ messages: this.messages, tools }, signal)
    this.messages.push({ role: 'assistant', content: reply.text, toolCalls: reply.toolCalls })
    const calls = reply.toolCalls.map((call) => ({
      ...call,
      input: { callId: call.id, name: call.name, arguments: call.arguments as JsonValue },
    }))
    return { text: reply.text, calls }
  }

  answer(turn: ConversationTurn, results: readonly ToolExecutionResult[]): void {
    const contexts: ChatMessage[] = []
    turn.calls.forEach((call, index) => {
      const result = results[index]!
      this.messages.push({
        role: 'tool',
        toolCallId: call.id,
        name: call.name,
        content: contentText(result.content),
        isError: result.isError,
      })
      for (const context of result.additionalContexts ?? []) {
        contexts.push({
          role: 'user',
          content: `<context source="${context.source}">\n${context.text}\n</context>`,
        })
      }
    })
    this.messages.push(...contexts)
  }
}

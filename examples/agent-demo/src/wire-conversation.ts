/**
 * A conversation in one provider's wire format, driven end to end through
 * `@dsh/tools-providers`: each turn's `tools` come from `providerTools`, the model's response is
 * read with `providerCalls`, and the results go back as `providerResults` wrote them. The
 * scripted model reads results from those written messages, so a script passes only when every
 * result made it through the provider's format.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { JsonValue, NativeToolSpec, ScopeKey, ToolExecutionResult } from '@dsh/tools-core'
import {
  type Provider,
  type ProviderCall,
  type ProviderWire,
  providerCalls,
  providerResults,
  providerTools,
} from '@dsh/tools-providers'
import type { Conversation, ConversationTurn } from './conversation'
import type { ChatMessage, Model } from './model'
import type { WireCodec, WireEntry } from './wire-codec'

/** What a {@link WireConversation} needs. */
export interface WireConversationOptions<P extends Provider> {
  readonly provider: P
  readonly codec: WireCodec<P>
  readonly ctx: Context
  readonly agent?: ScopeKey
  /** The model that plays the assistant (the scripted one). */
  readonly model: Model
}

export class WireConversation<P extends Provider> implements Conversation {
  readonly model: string
  /** The conversation as the provider's API receives it. */
  readonly wire: WireEntry[]
  /** The same conversation as the scripts read it. */
  readonly messages: ChatMessage[]
  /** The `tools` value of every request, in order. */
  readonly requests: ProviderWire[P]['tools'][] = []
  private calls: ProviderCall[] = []

  constructor(
    private readonly options: WireConversationOptions<P>,
    system: string,
    task: string,
  ) {
    this.model = `${options.model.name} via ${options.provider}`
    this.wire = options.codec.start(system, task)
    this.messages = [
      { role: 'system', content: system },
      { role: 'user', content: task },
    ]
  }

  async next(tools: readonly NativeToolSpec[], signal: AbortSignal): Promise<ConversationTurn> {
    const { provider, codec, ctx, agent } = this.options
    this.requests.push(providerTools(ctx, provider, agent === undefined ? {} : { agent }))
    const turn = await this.options.model.next({ messages: this.messages, tools }, signal)
    // over the wire: the response arrives as JSON text
    const response = JSON.parse(
      JSON.stringify(codec.response(turn, this.requests.length)),
    ) as ProviderWire[P]['response']
    this.wire.push(...codec.assistant(response))
    this.calls = providerCalls(provider, response)
    this.messages.push({ role: 'assistant', content: turn.text, toolCalls: turn.toolCalls })
    return {
      text: turn.text,
      calls: this.calls.map((call) => ({
        id: call.callId,
        name: call.name,
        arguments: call.arguments as JsonValue,
        input: call,
      })),
    }
  }

  answer(_turn: ConversationTurn, results: readonly ToolExecutionResult[]): void {
    const { provider, codec } = this.options
    const { messages, pending } = providerResults(provider, this.calls, results)
    if (pending.length > 0) {
      throw new Error(
        `${pending.length} call(s) wait for a person's approval; the demo decides approvals inline`,
      )
    }
    this.wire.push(...(messages as unknown as WireEntry[]))
    const byId = new Map(this.calls.map((call, index) => [call.callId, index]))
    for (const [callId, text] of codec.resultTexts(messages)) {
      const index = byId.get(callId) ?? -1
      const call = this.calls[index]
      if (call === undefined) throw new Error(`${provider}: a result for an unknown call ${callId}`)
      this.messages.push({
        role: 'tool',
        toolCallId: callId,
        name: call.name,
        content: text,
        isError: results[index]!.isError,
      })
    }
  }
}

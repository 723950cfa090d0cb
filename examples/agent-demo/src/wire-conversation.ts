/**
 * A conversation in one provider's wire format, driven end to end through
 * `@dsh/tools-providers`: each turn's `tools` come from `providerTools`, the model's response is
 * read with `providerCalls`, and the results go back as `providerResults` wrote them. Who
 * answers is a {@link Responder}: the scripted model speaking the provider's recorded response
 * shapes (`--provider`), or a live endpoint (`--openai`).
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
import type { ChatMessage, Model, ModelRequest } from './model'
import type { WireCodec, WireEntry } from './wire-codec'

/** One request as the provider receives it, plus the same conversation as chat messages. */
export interface WireRequest<P extends Provider> {
  readonly wire: readonly WireEntry[]
  readonly tools: ProviderWire[P]['tools']
  /** The conversation read as chat messages, with the assembly's native tools (for scripts). */
  readonly chat: ModelRequest
  /** 1 for the first request of the run. */
  readonly n: number
}

/** Whoever answers a request: the provider's response and the assistant's text in it. */
export type Responder<P extends Provider> = (
  request: WireRequest<P>,
  signal: AbortSignal,
) => Promise<{ readonly response: ProviderWire[P]['response']; readonly text: string }>

/** What a {@link WireConversation} needs. */
export interface WireConversationOptions<P extends Provider> {
  readonly provider: P
  readonly codec: WireCodec<P>
  readonly ctx: Context
  readonly agent?: ScopeKey
  /** The model's name for the report. */
  readonly model: string
  readonly respond: Responder<P>
}

/** The scripted model's turns as the provider's responses, sent through JSON like bytes on the wire. */
export function scriptedResponder<P extends Provider>(model: Model, codec: WireCodec<P>): Responder<P> {
  return async (request, signal) => {
    const turn = await model.next(request.chat, signal)
    const response = JSON.parse(
      JSON.stringify(codec.response(turn, request.n, request.tools)),
    ) as ProviderWire[P]['response']
    return { response, text: turn.text }
  }
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
    this.model = options.model
    this.wire = options.codec.start(system, task)
    this.messages = [
      { role: 'system', content: system },
      { role: 'user', content: task },
    ]
  }

  async next(tools: readonly NativeToolSpec[], signal: AbortSignal): Promise<ConversationTurn> {
    const { provider, codec, ctx, agent } = this.options
    const wireTools = providerTools(ctx, provider, agent === undefined ? {} : { agent })
    this.requests.push(wireTools)
    const request = {
      wire: this.wire,
      tools: wireTools,
      chat: { messages: this.messages, tools },
      n: this.requests.length,
    }
    const { response, text } = await this.options.respond(request, signal)
    this.wire.push(...codec.assistant(response))
    this.calls = providerCalls(provider, response)
    const calls = this.calls.map((call) => ({
      id: call.callId,
      name: call.name,
      arguments: call.arguments as JsonValue,
      input: call,
    }))
    this.messages.push({
      role: 'assistant',
      content: text,
      toolCalls: calls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })),
    })
    return { text, calls }
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

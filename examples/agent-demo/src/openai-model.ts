/**
 * An optional adapter for a real OpenAI-compatible chat-completions endpoint, so the same loop
 * can run with a live model: `pnpm demo -- --openai` with OPENAI_API_KEY, OPENAI_BASE_URL
 * (e.g. `https://api.example.com/v1`) and optionally OPENAI_MODEL set. Never required, never
 * used by tests; it uses only `fetch`.
 */
import type { JsonValue } from '@dsh/tools-core'
import type { AssistantTurn, ChatMessage, Model, ModelRequest, ToolCallRequest } from './model'

/** Settings of {@link OpenAIChatModel}. */
export interface OpenAIChatModelOptions {
  readonly apiKey: string
  /** Base URL up to (not including) `/chat/completions`. */
  readonly baseUrl: string
  readonly model: string
  readonly temperature?: number
}

interface WireToolCall {
  readonly id: string
  readonly type: 'function'
  readonly function: { readonly name: string; readonly arguments: string }
}

interface WireResponse {
  readonly choices?: readonly {
    readonly message?: { readonly content?: string | null; readonly tool_calls?: readonly WireToolCall[] }
  }[]
}

function toWire(message: ChatMessage): Record<string, unknown> {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content }
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content || null,
        ...(message.toolCalls.length
          ? {
              tool_calls: message.toolCalls.map((call) => ({
                id: call.id,
                type: 'function',
                function: { name: call.name, arguments: JSON.stringify(call.arguments) },
              })),
            }
          : {}),
      }
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content }
  }
}

function parseArguments(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue
  } catch {
    // hand the raw text on: the registry answers with INVALID_ARGS and the model can retry
    return text
  }
}

/** A {@link Model} backed by `POST {baseUrl}/chat/completions`. */
export class OpenAIChatModel implements Model {
  readonly name: string
  private readonly options: OpenAIChatModelOptions

  constructor(options: OpenAIChatModelOptions) {
    this.options = options
    this.name = options.model
  }

  /** Build one from OPENAI_API_KEY / OPENAI_BASE_URL / OPENAI_MODEL, or `undefined` when unset. */
  static fromEnvironment(env: NodeJS.ProcessEnv = process.env): OpenAIChatModel | undefined {
    const apiKey = env['OPENAI_API_KEY']
    const baseUrl = env['OPENAI_BASE_URL']
    if (!apiKey || !baseUrl) return undefined
    return new OpenAIChatModel({ apiKey, baseUrl, model: env['OPENAI_MODEL'] ?? 'gpt-4o-mini' })
  }

  async next(request: ModelRequest, signal: AbortSignal): Promise<AssistantTurn> {
    const response = await fetch(`${this.options.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      signal,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${this.options.apiKey}` },
      body: JSON.stringify({
        model: this.options.model,
        temperature: this.options.temperature ?? 0,
        messages: request.messages.map(toWire),
        tools: request.tools.map((tool) => ({
          type: 'function',
          function: { name: tool.name, description: tool.description, parameters: tool.parameters },
        })),
      }),
    })
    if (!response.ok) throw new Error(`chat endpoint answered ${response.status}: ${await response.text()}`)
    const body = (await response.json()) as WireResponse
    const message = body.choices?.[0]?.message
    if (!message) throw new Error('chat endpoint returned no choices')
    const toolCalls: ToolCallRequest[] = (message.tool_calls ?? []).map((call) => ({
      id: call.id,
      name: call.function.name,
      arguments: parseArguments(call.function.arguments),
    }))
    return { text: message.content ?? '', toolCalls }
  }
}

/**
 * An optional live model: any OpenAI-compatible chat-completions endpoint, so the same loop can
 * run with a real model: `pnpm demo -- --openai` with OPENAI_API_KEY, OPENAI_BASE_URL (e.g.
 * `https://api.example.com/v1`) and optionally OPENAI_MODEL set. The conversation goes through
 * `@dsh/tools-providers` like `--provider openai-chat`: strict function tools in the
 * openai-strict dialect, calls read back (malformed JSON → INVALID_ARGS), results as tool
 * messages. Never required, never used by tests against a real endpoint; it uses only `fetch`.
 */
import type { OpenAIChatResponse } from '@dsh/tools-providers'
import { type AgentLoopOptions, type AgentLoopOutcome, runAgentLoop } from './agent-loop'
import { openAIChatCodec } from './wire-codecs'
import { type Responder, WireConversation } from './wire-conversation'

/** Settings of {@link OpenAIChatModel}. */
export interface OpenAIChatModelOptions {
  readonly apiKey: string
  /** Base URL up to (not including) `/chat/completions`. */
  readonly baseUrl: string
  readonly model: string
  readonly temperature?: number
}

interface WireResponse extends OpenAIChatResponse {
  readonly choices: readonly { readonly message: { readonly content?: string | null } }[] &
    OpenAIChatResponse['choices']
}

/** A live chat-completions endpoint, as the loop's conversation (`POST {baseUrl}/chat/completions`). */
export class OpenAIChatModel {
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

  /** One request: the wire conversation and the strict tools, as the endpoint takes them. */
  readonly respond: Responder<'openai-chat'> = async ({ wire, tools }, signal) => {
    const response = await fetch(`${this.options.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      signal,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${this.options.apiKey}` },
      body: JSON.stringify({
        model: this.options.model,
        temperature: this.options.temperature ?? 0,
        messages: wire,
        ...(tools.length > 0 ? { tools } : {}),
      }),
    })
    if (!response.ok) throw new Error(`chat endpoint answered ${response.status}: ${await response.text()}`)
    const body = (await response.json()) as Partial<WireResponse>
    const message = body.choices?.[0]?.message
    if (!message) throw new Error('chat endpoint returned no choices')
    return { response: body as WireResponse, text: message.content ?? '' }
  }

  /**
   * Run the demo's loop against this endpoint: the loop's options with a conversation in the
   * OpenAI Chat wire format (the scripted model of the options is not used).
   */
  readonly loop = (options: AgentLoopOptions): Promise<AgentLoopOutcome> =>
    runAgentLoop({
      ...options,
      conversation: (system, task) =>
        new WireConversation(
          {
            provider: 'openai-chat',
            codec: openAIChatCodec,
            ctx: options.ctx,
            ...(options.agent === undefined ? {} : { agent: options.agent }),
            model: this.name,
            respond: this.respond,
          },
          system,
          task,
        ),
    })
}

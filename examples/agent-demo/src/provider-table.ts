/**
 * `--provider <name>`: which wire format the demo's scripted turns travel in. One entry per
 * name; each builds the loop's conversation for a run. Add a provider by adding an entry.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { ScopeKey } from '@dsh/tools-core'
import type { Provider } from '@dsh/tools-providers'
import type { Conversation } from './conversation'
import type { Model } from './model'
import type { WireCodec } from './wire-codec'
import { anthropicCodec, geminiCodec, openAIChatCodec, openAIResponsesCodec } from './wire-codecs'
import { scriptedResponder, WireConversation } from './wire-conversation'

/** What an entry gets to build a run's conversation. */
export interface ProviderSetup {
  readonly ctx: Context
  readonly agent?: ScopeKey
  /** The scripted model for the run's mode. */
  readonly model: Model
}

/** One `--provider` value. */
export interface DemoProvider {
  /** One line for `--help`. */
  readonly description: string
  /** The conversation factory the agent loop calls with the system prompt and the task. */
  conversation(setup: ProviderSetup): (system: string, task: string) => Conversation
}

function wireProvider<P extends Provider>(
  provider: P,
  codec: WireCodec<P>,
  description: string,
): DemoProvider {
  return {
    description,
    conversation:
      ({ ctx, agent, model }) =>
      (system, task) =>
        new WireConversation(
          {
            provider,
            codec,
            ctx,
            ...(agent === undefined ? {} : { agent }),
            model: `${model.name} via ${provider}`,
            respond: scriptedResponder(model, codec),
          },
          system,
          task,
        ),
  }
}

/** Every `--provider` value, in the order `--help` lists them. */
export const DEMO_PROVIDERS: Readonly<Record<string, DemoProvider>> = Object.freeze({
  'openai-chat': wireProvider('openai-chat', openAIChatCodec, 'OpenAI Chat Completions (tool messages)'),
  'openai-responses': wireProvider(
    'openai-responses',
    openAIResponsesCodec,
    'OpenAI Responses (function_call_output items)',
  ),
  anthropic: wireProvider('anthropic', anthropicCodec, 'Anthropic Messages (tool_result blocks)'),
  gemini: wireProvider('gemini', geminiCodec, 'Gemini (functionResponse parts)'),
})

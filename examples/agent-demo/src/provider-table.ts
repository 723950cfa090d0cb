/**
 * `--provider <name>`: which stack the demo's scripted turns travel through — a wire format
 * of `@dsh/tools-providers`, or the Vercel AI SDK. Add a provider by adding an entry.
 */
import type { Provider } from '@dsh/tools-providers'
import { type AgentLoopOptions, type AgentLoopOutcome, runAgentLoop } from './agent-loop'
import { DEMO_PROVIDER_NAMES, type DemoProviderName } from './provider-names'
import type { WireCodec } from './wire-codec'
import { anthropicCodec, geminiCodec, openAIChatCodec, openAIResponsesCodec } from './wire-codecs'
import { scriptedResponder, WireConversation } from './wire-conversation'

/**
 * One `--provider` value: a loop that runs the task through that stack. Wire formats run the
 * demo's own loop over a conversation in their shape; the AI SDK runs a loop of its own.
 */
export interface DemoProvider {
  /** One line for `--help`. */
  readonly description: string
  /** Run the task (the options of `runAgentLoop`, without a conversation of their own). */
  readonly loop: (options: AgentLoopOptions) => Promise<AgentLoopOutcome>
}

function wireProvider<P extends Provider>(
  provider: P,
  codec: WireCodec<P>,
  description: string,
): DemoProvider {
  return {
    description,
    loop: (options) =>
      runAgentLoop({
        ...options,
        conversation: (system, task) =>
          new WireConversation(
            {
              provider,
              codec,
              ctx: options.ctx,
              ...(options.agent === undefined ? {} : { agent: options.agent }),
              model: `${options.model.name} via ${provider}`,
              respond: scriptedResponder(options.model, codec),
            },
            system,
            task,
          ),
      }),
  }
}

/** The stack of each `--provider` value (one entry per name of `DEMO_PROVIDER_NAMES`). */
const PROVIDERS: Readonly<Record<DemoProviderName, DemoProvider>> = {
  'openai-chat': wireProvider('openai-chat', openAIChatCodec, 'OpenAI Chat Completions (tool messages)'),
  'openai-responses': wireProvider(
    'openai-responses',
    openAIResponsesCodec,
    'OpenAI Responses (function_call_output items)',
  ),
  anthropic: wireProvider('anthropic', anthropicCodec, 'Anthropic Messages (tool_result blocks)'),
  gemini: wireProvider('gemini', geminiCodec, 'Gemini (functionResponse parts)'),
  'ai-sdk': {
    description: "the Vercel AI SDK's own generateText loop over @dsh/tools-ai-sdk",
    // Loaded on use: the `ai` package is not imported by the other runs.
    loop: async (options) => (await import('./ai-sdk-loop')).runAiSdkLoop(options),
  },
}

/** Every `--provider` value, in the order `--help` lists them. */
export const DEMO_PROVIDERS: Readonly<Record<string, DemoProvider>> = Object.freeze(
  Object.fromEntries(DEMO_PROVIDER_NAMES.map((name) => [name, PROVIDERS[name]])),
)

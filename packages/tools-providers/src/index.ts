// Public API of @dsh/tools-providers. Explicit named re-exports only; no logic here.

export { PROVIDERS } from './internal/wire-formats'
export { providerCalls } from './provider-calls'
export { providerResults } from './provider-results'
export { providerTools } from './provider-tools'
export type {
  AnthropicImageMediaType,
  AnthropicResponse,
  AnthropicTool,
  AnthropicToolResultBlock,
  AnthropicUserMessage,
  CallOutcome,
  GeminiFunctionResponsePart,
  GeminiResponse,
  GeminiSchema,
  GeminiTool,
  GeminiType,
  GeminiUserContent,
  OpenAIChatResponse,
  OpenAIChatTool,
  OpenAIChatToolMessage,
  OpenAIChatUserMessage,
  OpenAIResponsesFunctionCallOutput,
  OpenAIResponsesResponse,
  OpenAIResponsesTool,
  OpenAIResponsesUserMessage,
  Provider,
  ProviderCall,
  ProviderOptions,
  ProviderPendingCall,
  ProviderResults,
  ProviderWire,
  WireObject,
} from './types'

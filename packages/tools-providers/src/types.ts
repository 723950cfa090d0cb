/**
 * Public types of @dsh/tools-providers: the four providers' wire shapes, written out
 * structurally so the package needs none of the SDKs. `tests/sdk-types.spec.ts` compiles them
 * against the official SDKs' own types (`openai`, `@anthropic-ai/sdk`, `@google/genai`) under
 * `tsc --strict`: every output assigns to the SDK's request type, every SDK response assigns to
 * the input type.
 */
import type { ProviderDialect, ScopeKey, ToolExecutionResult, ToolFailure } from '@dsh/tools-core'

/** A model API whose wire format the helpers speak. */
export type Provider = 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini'

/** Options of `providerTools` and `providerCalls` (pass the same `strict` to both). */
export interface ProviderOptions {
  /** The agent whose tools to list (its scope key); absent: the global view. */
  readonly agent?: ScopeKey
  /**
   * Strict function calling. OpenAI (default `true`): `strict: true` with the `openai-strict`
   * dialect; `false`: `strict: false` with plain JSON Schema. Anthropic (default `false`):
   * `true` adds `strict: true` and uses the `openai-strict` dialect. Gemini: ignored.
   */
  readonly strict?: boolean
}

/** A JSON object as the SDKs type free-form schemas and arguments. */
export type WireObject = { [key: string]: unknown }

// ───────────────────────────── OpenAI Chat Completions ─────────────────────────────

/** `ChatCompletionFunctionTool`: one entry of `tools` in `chat.completions.create`. */
export interface OpenAIChatTool {
  type: 'function'
  function: { name: string; description: string; parameters: WireObject; strict: boolean }
}

/** The part of a `ChatCompletion` the helpers read: the first choice's tool calls. */
export interface OpenAIChatResponse {
  choices: readonly {
    message: {
      tool_calls?:
        | readonly (
            | { id: string; type: 'function'; function: { name: string; arguments: string } }
            | { id: string; type: 'custom' }
          )[]
        | null
        | undefined
    }
  }[]
}

/** `ChatCompletionToolMessageParam`: a tool's result (text only: Chat has no images here). */
export interface OpenAIChatToolMessage {
  role: 'tool'
  tool_call_id: string
  content: string
}

/** `ChatCompletionUserMessageParam` with text and image parts: the tool results' images. */
export interface OpenAIChatUserMessage {
  role: 'user'
  content: ({ type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } })[]
}

// ──────────────────────────────── OpenAI Responses ────────────────────────────────

/** `FunctionTool`: one entry of `tools` in `responses.create`. */
export interface OpenAIResponsesTool {
  type: 'function'
  name: string
  description: string
  parameters: WireObject
  strict: boolean
}

/** The part of a `Response` the helpers read: its `function_call` output items. */
export interface OpenAIResponsesResponse {
  output: readonly (
    | { type: 'function_call'; call_id: string; name: string; arguments: string }
    | { type: Exclude<string, 'function_call'> }
  )[]
}

/** `ResponseInputItem.FunctionCallOutput`: a tool's result, text or text and images. */
export interface OpenAIResponsesFunctionCallOutput {
  type: 'function_call_output'
  call_id: string
  output: string | ({ type: 'input_text'; text: string } | { type: 'input_image'; image_url: string })[]
}

/** `EasyInputMessage` from the user: the results' additional contexts. */
export interface OpenAIResponsesUserMessage {
  type: 'message'
  role: 'user'
  content: string
}

// ──────────────────────────────── Anthropic Messages ────────────────────────────────

/** Anthropic's `Tool`: one entry of `tools` in `messages.create`. */
export interface AnthropicTool {
  name: string
  description: string
  input_schema: { type: 'object'; [key: string]: unknown }
  strict?: true
}

/** The part of a `Message` the helpers read: its `tool_use` content blocks. */
export interface AnthropicResponse {
  content: readonly (
    | { type: 'tool_use'; id: string; name: string; input: unknown }
    | { type: Exclude<string, 'tool_use'> }
  )[]
}

/** The image media types Anthropic accepts (`Base64ImageSource.media_type`). */
export type AnthropicImageMediaType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp'

/** `ToolResultBlockParam`: one call's result, with `is_error` and image blocks. */
export interface AnthropicToolResultBlock {
  type: 'tool_result'
  tool_use_id: string
  is_error: boolean
  content: (
    | { type: 'text'; text: string }
    | { type: 'image'; source: { type: 'base64'; media_type: AnthropicImageMediaType; data: string } }
  )[]
}

/** `MessageParam`: the one user message that carries a turn's tool results. */
export interface AnthropicUserMessage {
  role: 'user'
  content: (AnthropicToolResultBlock | { type: 'text'; text: string })[]
}

// ────────────────────────────────────── Gemini ──────────────────────────────────────

/** The values of `@google/genai`'s `Type` enum (the gemini dialect's upper-case type names). */
export type GeminiType =
  | 'TYPE_UNSPECIFIED'
  | 'STRING'
  | 'NUMBER'
  | 'INTEGER'
  | 'BOOLEAN'
  | 'ARRAY'
  | 'OBJECT'
  | 'NULL'

/**
 * A `Schema` in the gemini dialect (OpenAPI 3.0 subset). `type` holds the string values of
 * the SDK's `Type` enum, which TypeScript does not let a string literal stand for: cast with
 * `as Tool[]` where the SDK asks for its enum (the values are the same).
 */
export interface GeminiSchema {
  type?: GeminiType
  [key: string]: unknown
}

/** `Tool` with `functionDeclarations`: the one entry of `config.tools` in `generateContent`. */
export interface GeminiTool {
  functionDeclarations: { name: string; description: string; parameters: GeminiSchema }[]
}

/** The part of a `GenerateContentResponse` the helpers read: the first candidate's function calls. */
export interface GeminiResponse {
  candidates?:
    | readonly {
        content?: { parts?: readonly { functionCall?: { id?: string; name?: string; args?: unknown } }[] }
      }[]
    | undefined
}

/** A `Part` carrying one call's `functionResponse` (images as `FunctionResponsePart`s). */
export interface GeminiFunctionResponsePart {
  functionResponse: {
    id?: string
    name: string
    response: { output: string } | { error: string }
    parts?: { inlineData: { mimeType: string; data: string } }[]
  }
}

/** `Content` from the user: a turn's function responses (and additional contexts as text). */
export interface GeminiUserContent {
  role: 'user'
  parts: (GeminiFunctionResponsePart | { text: string })[]
}

// ─────────────────────────────────── the helpers ───────────────────────────────────

/** Each provider's wire shapes: the `tools` value, the response read, the messages appended. */
export interface ProviderWire {
  'openai-chat': {
    tools: OpenAIChatTool[]
    response: OpenAIChatResponse
    message: OpenAIChatToolMessage | OpenAIChatUserMessage
  }
  'openai-responses': {
    tools: OpenAIResponsesTool[]
    response: OpenAIResponsesResponse
    message: OpenAIResponsesFunctionCallOutput | OpenAIResponsesUserMessage
  }
  anthropic: { tools: AnthropicTool[]; response: AnthropicResponse; message: AnthropicUserMessage }
  gemini: { tools: GeminiTool[]; response: GeminiResponse; message: GeminiUserContent }
}

/**
 * One call of a response, ready for `ctx.tools.execute({ ...call, signal })` (or a batch):
 * a `ToolExecutionInput` without `signal` and `agent`, plus what `providerResults` needs.
 */
export interface ProviderCall {
  readonly callId: string
  readonly name: string
  /** The parsed arguments; for malformed JSON text, that text (the pipeline answers `INVALID_ARGS`). */
  readonly arguments: unknown
  /** The dialect the model saw the tool in: the pipeline reads the arguments back to canonical form. */
  readonly dialect: ProviderDialect
  /** Set when the argument text was not JSON: the parser's message. */
  readonly malformed?: string
  /** Set when the provider gave the call no id (Gemini may not): `callId` was made from its position. */
  readonly generatedId?: true
}

/** A call held back from the conversation because a person must approve it first. */
export interface ProviderPendingCall {
  readonly call: ProviderCall
  /** The `APPROVAL_PENDING` failure; `result.pending.ticket` is what `ctx.tools.resume` takes. */
  readonly result: ToolFailure
  readonly ticket: string
}

/** What `providerResults` returns: messages to append, and the calls that wait for approval. */
export interface ProviderResults<P extends Provider> {
  /** Append these to the conversation, in order. Empty when every call is pending. */
  readonly messages: ProviderWire[P]['message'][]
  /** Calls whose result is `APPROVAL_PENDING`, in call order: nothing was sent for them. */
  readonly pending: readonly ProviderPendingCall[]
}

/** A call and its result, as each provider's result writer receives them (pending ones removed). */
export interface CallOutcome {
  readonly call: ProviderCall
  readonly result: ToolExecutionResult
}

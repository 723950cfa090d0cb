/** What a call's argument text reads as: the value, or the text itself and why it is not JSON. */
export type ParsedArgumentText =
  | { readonly arguments: unknown }
  | { readonly arguments: string; readonly malformed: string }

/**
 * Parse a provider's argument text. Malformed text is not thrown: the text itself becomes the
 * arguments (no tool's parameters accept a string, so the pipeline answers `INVALID_ARGS` before
 * any policy or body runs) and `malformed` keeps the parser's message for the model. Empty text
 * is `{}`: some OpenAI-compatible servers send it for a call without parameters.
 */
export function parseArgumentText(text: string): ParsedArgumentText {
  if (text.trim() === '') return { arguments: {} }
  try {
    return { arguments: JSON.parse(text) as unknown }
  } catch (error) {
    return { arguments: text, malformed: error instanceof Error ? error.message : String(error) }
  }
}

/**
 * A call's arguments as the response holds them: text (OpenAI's `arguments`, or Anthropic
 * `input` a client accumulated from a stream) is parsed; an already parsed value (Anthropic
 * `input`, Gemini `args`, an object some compatible servers send) passes as it is.
 */
export function parsedOrText(input: unknown): ParsedArgumentText {
  if (typeof input === 'string') return parseArgumentText(input)
  return { arguments: input === undefined ? {} : input }
}

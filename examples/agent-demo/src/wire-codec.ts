/**
 * The model side of one provider's wire format, for the scripted model: each scripted turn
 * written as the response that provider's API returns (the recorded shape, sent through
 * `JSON.stringify` like bytes on the wire), and the conversation read back into the chat view
 * the scripts read results from. The loop side — tool lists, calls, results — is
 * `@dsh/tools-providers` alone.
 */
import type { Provider, ProviderWire } from '@dsh/tools-providers'
import type { AssistantTurn } from './model'

/** A conversation entry of provider `P`: whatever its API takes as a message / input item / content. */
export type WireEntry = Record<string, unknown>

/** How the scripted model speaks provider `P`. */
export interface WireCodec<P extends Provider> {
  /** The entries a conversation starts with (the system prompt may live in the request instead). */
  start(system: string, task: string): WireEntry[]
  /** The response the provider would return for `turn` (the `n`-th of the run). */
  response(turn: AssistantTurn, n: number): ProviderWire[P]['response']
  /** What of `response` goes back into the conversation as the assistant's turn. */
  assistant(response: ProviderWire[P]['response']): WireEntry[]
  /** Each tool result in `messages` (what `providerResults` wrote) as `[callId, text]`. */
  resultTexts(messages: readonly ProviderWire[P]['message'][]): [string, string][]
}

/** The scripted turn's calls with their arguments as JSON text, as the APIs send them. */
export function argumentText(turn: AssistantTurn): { id: string; name: string; text: string }[] {
  return turn.toolCalls.map((call) => ({
    id: call.id,
    name: call.name,
    text: JSON.stringify(call.arguments),
  }))
}

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
  /**
   * The response the provider would return for `turn` (the `n`-th of the run), offered
   * `tools` (a strict-mode model fills every property, `null` for the ones it leaves out).
   */
  response(turn: AssistantTurn, n: number, tools: ProviderWire[P]['tools']): ProviderWire[P]['response']
  /** What of `response` goes back into the conversation as the assistant's turn. */
  assistant(response: ProviderWire[P]['response']): WireEntry[]
  /** Each tool result in `messages` (what `providerResults` wrote) as `[callId, text]`. */
  resultTexts(messages: readonly ProviderWire[P]['message'][]): [string, string][]
}

/** A strict tool's name and the properties its schema requires (strict mode requires all). */
export interface StrictTool {
  readonly name: string
  readonly strict: boolean
  readonly required: readonly string[]
}

/**
 * The scripted turn's calls with their arguments as JSON text, as the APIs send them. Under
 * strict mode a model must give every property, so one it leaves out is sent as `null` (the
 * pipeline reads that back as absent: the `openai-strict` dialect at work).
 */
export function argumentText(
  turn: AssistantTurn,
  strictTools: readonly StrictTool[] = [],
): { id: string; name: string; text: string }[] {
  const strict = new Map(strictTools.filter((tool) => tool.strict).map((tool) => [tool.name, tool.required]))
  return turn.toolCalls.map((call) => {
    const required = strict.get(call.name)
    const args = call.arguments
    if (required === undefined || typeof args !== 'object' || args === null || Array.isArray(args)) {
      return { id: call.id, name: call.name, text: JSON.stringify(args) }
    }
    const filled: Record<string, unknown> = { ...args }
    for (const name of required) if (!(name in filled)) filled[name] = null
    return { id: call.id, name: call.name, text: JSON.stringify(filled) }
  })
}

/** The required list of a wire schema (`[]` when it has none). */
export function requiredOf(parameters: unknown): string[] {
  const required = (parameters as { required?: unknown } | null)?.required
  return Array.isArray(required) ? required.filter((name): name is string => typeof name === 'string') : []
}

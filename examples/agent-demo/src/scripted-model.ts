/**
 * A deterministic model: a script of assistant turns. Each step sees the request (so it can
 * read earlier tool results, like a real model would) and returns the next turn. It checks
 * that every call it makes names a tool the request actually offers, so a script written for
 * native mode fails loudly when run in Code Mode.
 */
import type { AssistantTurn, Model, ModelRequest } from './model'

/** One scripted turn: a fixed turn or a function of the conversation so far. */
export type ScriptStep = AssistantTurn | ((request: ModelRequest) => AssistantTurn)

/** Plays back `steps` in order; after the last one it answers with a plain closing turn. */
export class ScriptedModel implements Model {
  readonly name: string
  private readonly steps: readonly ScriptStep[]
  private index = 0

  constructor(name: string, steps: readonly ScriptStep[]) {
    this.name = name
    this.steps = steps
  }

  /** How many steps have been played. */
  get played(): number {
    return this.index
  }

  async next(request: ModelRequest, signal: AbortSignal): Promise<AssistantTurn> {
    signal.throwIfAborted()
    const step = this.steps[this.index]
    this.index += 1
    if (step === undefined) return { text: 'Nothing left to do.', toolCalls: [] }
    const turn = typeof step === 'function' ? step(request) : step
    const offered = new Set(request.tools.map((tool) => tool.name))
    for (const call of turn.toolCalls) {
      if (!offered.has(call.name)) {
        throw new Error(
          `scripted model: step ${this.index} calls \`${call.name}\`, which this request does not offer`,
        )
      }
    }
    return turn
  }
}

/** The text of the latest tool message for `callId`, or '' when there is none. */
export function toolResultText(request: ModelRequest, callId: string): string {
  for (let i = request.messages.length - 1; i >= 0; i -= 1) {
    const message = request.messages[i]
    if (message?.role === 'tool' && message.toolCallId === callId) return message.content
  }
  return ''
}

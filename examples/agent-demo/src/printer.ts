/**
 * Turns loop events into terminal lines: the assembly, each assistant turn, each batch's
 * schedule, every call and result as its card, and the policy decisions taken on each call
 * (printed under its call card, before its result and any Code Mode sub-calls).
 */
import type { LoopEvent } from './agent-loop'
import { type CardStyle, renderCallCard, renderResultCard } from './cards'
import type { PolicyDecision, PolicyLog } from './policy'

function decisionText(decision: PolicyDecision): string {
  return `${decision.stage} ${decision.verdict} (${decision.reason})`
}

/** The policy decisions for one call, as one line (or none). */
export function decisionLine(log: PolicyLog, callId: string): string | undefined {
  const decisions = log.filter((decision) => decision.callId === callId)
  if (decisions.length === 0) return undefined
  return `⚖ ${decisions.map(decisionText).join(' → ')}`
}

/** A `report` callback that prints each event with `write`. */
export function createPrinter(write: (line: string) => void, style: CardStyle, policyLog: PolicyLog) {
  const nested: CardStyle = { ...style, indent: `${style.indent ?? ''}    ` }
  return (event: LoopEvent): void => {
    switch (event.type) {
      case 'assembly':
        write(
          `prompt assembly: mode ${event.mode}; native tools [${event.tools.join(', ')}]; sections ${
            event.sections.map((section) => `${section.id} (${section.chars} chars)`).join(', ') || 'none'
          }`,
        )
        return
      case 'tools':
        write('')
        write(`tools now (turn ${event.turn}): [${event.tools.join(', ')}]`)
        return
      case 'assistant':
        write('')
        write(`assistant (turn ${event.turn}): ${event.text}`)
        return
      case 'batch':
        write(
          `  batch: ${event.calls
            .map((call) => `${call.callId} ${call.name}${call.mode === 'parallel' ? ' ∥' : ' ▮'}`)
            .join('  ')}   (∥ may overlap, ▮ runs alone)`,
        )
        return
      case 'call': {
        const cardStyle = event.parentCallId === undefined ? style : nested
        const tag =
          event.parentCallId === undefined ? event.callId : event.callId.replace(`${event.parentCallId}:`, '')
        write('')
        for (const line of renderCallCard(event.view, cardStyle, `[${tag}]`)) write(line)
        // the gate runs before the body, so its verdict belongs under the call, above whatever
        // the call did (for run_code: above its sub-calls)
        const decisions = decisionLine(policyLog, event.callId)
        if (decisions) write(`${cardStyle.indent ?? ''}${decisions}`)
        return
      }
      case 'result': {
        const cardStyle = event.parentCallId === undefined ? style : nested
        for (const line of renderResultCard(event.view, cardStyle)) write(line)
        if (event.isError && event.code) write(`${cardStyle.indent ?? ''}  (error code ${event.code})`)
        // the card shows the whole output; the model got it cut to the result budget
        for (const marker of event.elided ?? [])
          write(`${cardStyle.indent ?? ''}  ✂ cut for the model: head and tail kept, …${marker}…`)
        return
      }
      case 'progress':
        write(`${style.indent ?? ''}  ⋯ ${event.text}`)
        return
      case 'context':
        write(`  + context from ${event.source}: ${event.text}`)
        return
      case 'final':
        write('')
        write(`assistant (turn ${event.turn}, final): ${event.text}`)
        return
    }
  }
}

/**
 * The agent loop: ask the model for a turn, run its tool calls through `ctx.tools.executeBatch`
 * (parallel calls overlap, exclusive ones are barriers; policy and results stay in model
 * order), show each call as its tool's cards, feed the results back, repeat until the model
 * stops calling tools. The tool list is re-assembled every turn (a `tool_search` loads deferred
 * tools from the next assembly). Everything it shows goes through `report`, so the CLI can print it and
 * a test can assert on it.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { CodeDispatchResult, CodeDispatchStart } from '@dsh/tools-codemode'
import type {
  JsonValue,
  ScopeKey,
  ToolCallView,
  ToolExecutionInput,
  ToolExecutionMode,
  ToolExecutionResult,
  ToolResultRecord,
  ToolResultView,
} from '@dsh/tools-core'
import { contentText } from './content-text'
import { ChatConversation, type Conversation } from './conversation'
import type { ChatMessage, Model, ToolCallRequest } from './model'
import { ProgressLog } from './progress-log'

/** What the loop reports, in order. */
export type LoopEvent =
  | {
      readonly type: 'assembly'
      readonly mode: string
      readonly tools: readonly string[]
      readonly sections: readonly { readonly id: string; readonly chars: number }[]
    }
  | {
      /** The native tool list changed since the last turn (e.g. `tool_search` loaded a tool). */
      readonly type: 'tools'
      readonly turn: number
      readonly mode: string
      readonly tools: readonly string[]
    }
  | { readonly type: 'assistant'; readonly turn: number; readonly text: string }
  | {
      readonly type: 'batch'
      readonly turn: number
      readonly calls: readonly {
        readonly callId: string
        readonly name: string
        readonly mode: ToolExecutionMode
      }[]
    }
  | {
      readonly type: 'call'
      readonly callId: string
      readonly name: string
      readonly view: ToolCallView
      readonly parentCallId?: string
    }
  | {
      readonly type: 'result'
      readonly callId: string
      readonly name: string
      readonly view: ToolResultView
      readonly isError: boolean
      readonly code?: string
      readonly parentCallId?: string
      /** The elision markers of a result the runtime's `resultBudget` cut (what the model sees instead). */
      readonly elided?: readonly string[]
    }
  | { readonly type: 'progress'; readonly callId: string; readonly text: string }
  | { readonly type: 'context'; readonly source: string; readonly text: string }
  | { readonly type: 'final'; readonly turn: number; readonly text: string }

/** Options of {@link runAgentLoop}. */
export interface AgentLoopOptions {
  readonly ctx: Context
  readonly model: Model
  /**
   * The conversation in a provider's wire format (`provider-table.ts`); default: the demo's chat shape
   * over `model`. Built from the system prompt and the task.
   */
  readonly conversation?: (system: string, task: string) => Conversation
  /** The user's request. */
  readonly task: string
  /** Extra system instructions placed before the registry's sections. */
  readonly instructions: string
  /** The agent scope the loop runs as (see `createScope`). */
  readonly agent?: ScopeKey
  readonly signal: AbortSignal
  readonly maxTurns?: number
  readonly maxParallel?: number
  readonly report: (event: LoopEvent) => void
}

/** How the loop ended. */
export interface AgentLoopOutcome {
  readonly turns: number
  readonly finalText: string
  readonly messages: readonly ChatMessage[]
  /** The conversation in a provider's wire format (`--provider` runs only). */
  readonly wire?: readonly Record<string, unknown>[]
  readonly results: readonly { readonly call: ToolCallRequest; readonly result: ToolExecutionResult }[]
}

export { contentText }

/** The `[elided …]` markers a result budget left in `text` (a cut text part's `…[elided …]…`). */
export function elisionMarkers(text: string): string[] {
  return [...text.matchAll(/\[elided [^\]\n]*\]/g)].map((match) => match[0])
}

/** The call card the tool chooses, or the generic fallback. */
export function callView(ctx: Context, name: string, args: JsonValue, agent?: ScopeKey): ToolCallView {
  try {
    const view = ctx.tools.get(name, agent)?.presentCall?.(args)
    if (view) return view
  } catch {
    // presenters must not crash the UI: fall back
  }
  return { card: 'generic', title: name, rawInput: args }
}

/** The result card the tool chooses (from the durable record and meta), or the generic fallback. */
export function resultView(
  ctx: Context,
  name: string,
  args: JsonValue,
  record: ToolResultRecord,
  meta: JsonValue | undefined,
  agent?: ScopeKey,
): ToolResultView {
  if (!record.isError) {
    try {
      const view = ctx.tools.get(name, agent)?.presentResult?.(args, record, meta)
      if (view) return view
    } catch {
      // fall back to generic
    }
  }
  return { card: 'generic', title: record.isError ? 'error' : 'result', content: contentText(record.content) }
}

/** The presentation meta the tool derives for a nested call's value (none on failure). */
function subCallMeta(
  ctx: Context,
  name: string,
  args: JsonValue,
  value: JsonValue | undefined,
  agent: ScopeKey | undefined,
): JsonValue | undefined {
  if (value === undefined) return undefined
  try {
    return ctx.tools.get(name, agent)?.output.presentationMeta?.(args as never, value as never)
  } catch {
    return undefined // presenters must not crash the UI: the card falls back to the content
  }
}

/** The system prompt of one turn: the instructions, then the registry's sections in order. */
export function systemPrompt(ctx: Context, instructions: string, agent: ScopeKey | undefined) {
  const assembly = ctx.tools.assemble(agent === undefined ? {} : { agent })
  const sections = [...assembly.sections]
    .sort((a, b) => a.order - b.order)
    .filter((section) => section.text !== '')
  const text = [instructions, ...sections.map((section) => section.text)].join('\n\n')
  return { assembly, sections, text }
}

/**
 * Code Mode sub-calls seen during one batch, grouped by their `run_code` call. Arguments and
 * order come from `tool/code-dispatch-start`, the final content from `tool/code-dispatch`, and
 * the value from the sub-call's own `tools/result` (its `callId` is the dispatch id). The
 * pipeline derives no presentation meta for nested calls (nothing shows them natively), so the
 * demo derives it the way a UI would — with the tool's own `output.presentationMeta` — and each
 * sub-call gets exactly the cards its tool shows for a native call.
 */
export class SubCallLog {
  private readonly starts = new Map<string, CodeDispatchStart[]>()
  private readonly ends = new Map<string, CodeDispatchResult>()
  private readonly values = new Map<string, JsonValue>()

  listen(ctx: Context): () => void {
    const stops = [
      ctx.on('tool/code-dispatch-start', (event) => {
        const list = this.starts.get(event.parent) ?? []
        list.push(event)
        this.starts.set(event.parent, list)
      }),
      ctx.on('tool/code-dispatch', (event) => {
        this.ends.set(event.id, event)
      }),
      ctx.on('tools/result', (execution, result) => {
        if (execution.parent !== undefined && !result.isError) this.values.set(execution.callId, result.value)
      }),
    ]
    return () => {
      for (const stop of stops) stop()
    }
  }

  /** Report the sub-calls of `parent` as nested call/result events, in submission order. */
  flush(ctx: Context, parent: string, agent: ScopeKey | undefined, report: (event: LoopEvent) => void): void {
    for (const start of this.starts.get(parent) ?? []) {
      report({
        type: 'call',
        callId: start.id,
        name: start.name,
        view: callView(ctx, start.name, start.arguments, agent),
        parentCallId: parent,
      })
      const end = this.ends.get(start.id)
      if (end === undefined) continue
      report({
        type: 'result',
        callId: start.id,
        name: start.name,
        view: resultView(
          ctx,
          start.name,
          start.arguments,
          { isError: end.isError, content: end.content },
          subCallMeta(ctx, start.name, start.arguments, this.values.get(start.id), agent),
          agent,
        ),
        isError: end.isError,
        parentCallId: parent,
      })
      this.ends.delete(start.id)
      this.values.delete(start.id)
    }
    this.starts.delete(parent)
  }
}

/** The outcome's record of the conversation: chat messages, and the wire entries when there are. */
function transcript(conversation: Conversation): Pick<AgentLoopOutcome, 'messages' | 'wire'> {
  return conversation.wire === undefined
    ? { messages: conversation.messages }
    : { messages: conversation.messages, wire: conversation.wire }
}

/** Run the loop until the model answers without tool calls (or `maxTurns` is reached). */
export async function runAgentLoop(options: AgentLoopOptions): Promise<AgentLoopOutcome> {
  const { ctx, model, agent, signal, report } = options
  const { assembly, sections, text } = systemPrompt(ctx, options.instructions, agent)
  report({
    type: 'assembly',
    mode: assembly.mode,
    tools: assembly.tools.map((tool) => tool.name),
    sections: sections.map((section) => ({ id: section.id, chars: section.text.length })),
  })
  const conversation =
    options.conversation?.(text, options.task) ?? new ChatConversation(model, text, options.task)
  const results: { call: ToolCallRequest; result: ToolExecutionResult }[] = []
  const maxTurns = options.maxTurns ?? 12
  let tools = assembly.tools
  for (let turn = 1; turn <= maxTurns; turn += 1) {
    if (turn > 1) {
      // Re-assemble every turn: a `tool_search` loads deferred tools from the next assembly.
      const next = ctx.tools.assemble(agent === undefined ? {} : { agent })
      const names = next.tools.map((tool) => tool.name)
      if (names.join('\n') !== tools.map((tool) => tool.name).join('\n')) {
        report({ type: 'tools', turn, mode: next.mode, tools: names })
      }
      tools = next.tools
    }
    const reply = await conversation.next(tools, signal)
    if (reply.calls.length === 0) {
      report({ type: 'final', turn, text: reply.text })
      return { turns: turn, finalText: reply.text, ...transcript(conversation), results }
    }
    if (reply.text) report({ type: 'assistant', turn, text: reply.text })
    const inputs: ToolExecutionInput[] = reply.calls.map((call) => ({
      ...call.input,
      signal,
      ...(agent === undefined ? {} : { agent }),
    }))
    report({
      type: 'batch',
      turn,
      calls: inputs.map((input) => ({
        callId: input.callId,
        name: input.name,
        mode: ctx.tools.executionMode(input),
      })),
    })
    const subCalls = new SubCallLog()
    const progress = new ProgressLog()
    const stops = [subCalls.listen(ctx), progress.listen(ctx)]
    let batch: ToolExecutionResult[]
    try {
      batch = [...(await ctx.tools.executeBatch(inputs, { maxParallel: options.maxParallel ?? 8, signal }))]
    } finally {
      for (const stop of stops) stop()
    }
    reply.calls.forEach((call, index) => {
      const result = batch[index]
      if (result === undefined) throw new Error(`executeBatch returned no result for ${call.id}`)
      const { input: _input, ...request } = call
      results.push({ call: request, result })
      report({
        type: 'call',
        callId: call.id,
        name: call.name,
        view: callView(ctx, call.name, call.arguments, agent),
      })
      subCalls.flush(ctx, call.id, agent, report)
      for (const text of progress.of(call.id)) report({ type: 'progress', callId: call.id, text })
      // the card is drawn from the tool's value; the model sees the (possibly budgeted) content
      const elided = elisionMarkers(contentText(result.content))
      report({
        type: 'result',
        callId: call.id,
        name: call.name,
        view: resultView(ctx, call.name, call.arguments, result, result.meta, agent),
        isError: result.isError,
        ...(result.isError && result.error.info ? { code: result.error.info.code } : {}),
        ...(elided.length > 0 ? { elided } : {}),
      })
      for (const context of result.additionalContexts ?? []) {
        report({ type: 'context', source: context.source, text: context.text })
      }
    })
    conversation.answer(reply, batch)
  }
  report({ type: 'final', turn: maxTurns, text: '(stopped: turn limit reached)' })
  return {
    turns: maxTurns,
    finalText: '(stopped: turn limit reached)',
    messages: conversation.messages,
    results,
  }
}

/**
 * `--provider ai-sdk`: the same task and the same scripted turns, run by the Vercel AI SDK's
 * own loop (`generateText`, ai 7) over `aiSdkTools` from `@dsh/tools-ai-sdk`. The demo's model
 * (scripted, or `--openai`) plays the AI SDK's language model through {@link aiSdkModel}: each
 * turn arrives in the AI SDK's model wire shape (`LanguageModelV4` content), and each prompt it
 * gets is the AI SDK's. Calls the policy asks about stop the turn with the AI SDK's
 * tool-approval requests; the demo's approval service answers them (standing in for a person)
 * as `tool-approval-response`s, and the next `generateText` runs the approved calls through the
 * pipeline exactly once. One `generateText` per model turn, its tool set rebuilt each time: a
 * `tool_search` loads deferred tools from the next assembly.
 */
import type { Context } from '@deepseek-ai/cordis'
import { aiSdkToolApproval, aiSdkTools } from '@dsh/tools-ai-sdk'
import type { JsonValue, ScopeKey, ToolExecution, ToolExecutionResult } from '@dsh/tools-core'
import { generateText, type ModelMessage, stepCountIs } from 'ai'
import { MockLanguageModelV4 } from 'ai/test'
import {
  type AgentLoopOptions,
  type AgentLoopOutcome,
  callView,
  type LoopEvent,
  resultView,
  SubCallLog,
  systemPrompt,
} from './agent-loop'
import type { AssistantTurn, ChatMessage, Model, ToolCallRequest } from './model'
import { ProgressLog } from './progress-log'

type V4Options = Parameters<MockLanguageModelV4['doGenerate']>[0]
type V4Result = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>
type V4Message = V4Options['prompt'][number]

const usage = {
  inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
}

/** The text the model reads for one AI SDK tool output. */
function outputText(output: { type: string; value?: unknown; reason?: string }): string {
  if (output.type === 'execution-denied')
    return `Error: not approved${output.reason ? ` (${output.reason})` : ''}`
  if (output.type === 'content' && Array.isArray(output.value))
    return output.value
      .map((part: { type: string; text?: string }) => part.text ?? `[${part.type}]`)
      .join('\n')
  return typeof output.value === 'string' ? output.value : JSON.stringify(output.value)
}

/** The AI SDK's prompt as the demo model's conversation. */
function chatMessages(prompt: readonly V4Message[]): ChatMessage[] {
  return prompt.flatMap((message): ChatMessage[] => {
    if (message.role === 'system') return [{ role: 'system', content: message.content }]
    if (message.role === 'user')
      return [
        {
          role: 'user',
          content: message.content.map((part) => (part.type === 'text' ? part.text : '')).join(''),
        },
      ]
    if (message.role === 'assistant') {
      const toolCalls: ToolCallRequest[] = []
      let text = ''
      for (const part of message.content) {
        if (part.type === 'text') text += part.text
        if (part.type === 'tool-call')
          toolCalls.push({ id: part.toolCallId, name: part.toolName, arguments: part.input as JsonValue })
      }
      return [{ role: 'assistant', content: text, toolCalls }]
    }
    return message.content.flatMap((part): ChatMessage[] =>
      part.type === 'tool-result'
        ? [
            {
              role: 'tool',
              toolCallId: part.toolCallId,
              name: part.toolName,
              content: outputText(part.output),
              isError: part.output.type.startsWith('error') || part.output.type === 'execution-denied',
            },
          ]
        : [],
    )
  })
}

/** One demo turn in the AI SDK's model wire shape. */
function v4Turn(turn: AssistantTurn): V4Result {
  return {
    content: [
      ...(turn.text ? [{ type: 'text' as const, text: turn.text }] : []),
      ...turn.toolCalls.map((call) => ({
        type: 'tool-call' as const,
        toolCallId: call.id,
        toolName: call.name,
        input: JSON.stringify(call.arguments),
      })),
    ],
    finishReason: { unified: turn.toolCalls.length > 0 ? 'tool-calls' : 'stop', raw: undefined },
    usage,
    warnings: [],
  }
}

/**
 * The demo's model as an AI SDK language model (`LanguageModelV4`). `conversation` is the last
 * prompt it got, and its answer, in the demo's message shape.
 */
export function aiSdkModel(model: Model, signal: AbortSignal) {
  const seen: { conversation: ChatMessage[] } = { conversation: [] }
  const language = new MockLanguageModelV4({
    provider: 'dsh-demo',
    modelId: model.name,
    doGenerate: async (options) => {
      const tools = (options.tools ?? []).flatMap((tool) =>
        tool.type === 'function'
          ? [{ name: tool.name, description: tool.description ?? '', parameters: tool.inputSchema as never }]
          : [],
      )
      const messages = chatMessages(options.prompt)
      const turn = await model.next({ messages, tools }, signal)
      seen.conversation = [...messages, { role: 'assistant', content: turn.text, toolCalls: turn.toolCalls }]
      return v4Turn(turn)
    },
  })
  return { language, seen }
}

/** The demo's approval service answers an AI SDK approval request (its rule stands in for a person). */
async function answer(ctx: Context, call: ToolCallRequest, reason: string | undefined) {
  const execution = {
    callId: call.id,
    name: call.name,
    arguments: call.arguments,
  } as unknown as ToolExecution
  return ctx.approval.request(execution, reason)
}

/** Run the task with the AI SDK's loop; the same outcome and events as `runAgentLoop`. */
export async function runAiSdkLoop(options: AgentLoopOptions): Promise<AgentLoopOutcome> {
  const { ctx, agent, signal, report } = options
  const view = agent === undefined ? {} : { agent }
  const { language: model, seen } = aiSdkModel(options.model, signal)
  const first = systemPrompt(ctx, options.instructions, agent)
  report({
    type: 'assembly',
    mode: first.assembly.mode,
    tools: first.assembly.tools.map((tool) => tool.name),
    sections: first.sections.map((section) => ({ id: section.id, chars: section.text.length })),
  })
  const published = new Map<string, ToolExecutionResult>()
  const subCalls = new SubCallLog()
  const progress = new ProgressLog()
  const stops = [
    subCalls.listen(ctx),
    progress.listen(ctx),
    ctx.on('tools/result', (execution, result) => {
      if (execution.parent === undefined) published.set(execution.callId, result)
    }),
  ]
  const messages: ModelMessage[] = [{ role: 'user', content: options.task }]
  const results: { call: ToolCallRequest; result: ToolExecutionResult }[] = []
  let waiting: ToolCallRequest[] = []
  const showResult = (call: ToolCallRequest) =>
    showCall(ctx, agent, call, published.get(call.id), subCalls, progress, report, results)
  let tools = first.assembly.tools.map((tool) => tool.name)
  const maxTurns = options.maxTurns ?? 12
  try {
    for (let turn = 1; turn <= maxTurns; turn += 1) {
      const { assembly, text } = systemPrompt(ctx, options.instructions, agent)
      const names = assembly.tools.map((tool) => tool.name)
      if (names.join('\n') !== tools.join('\n'))
        report({ type: 'tools', turn, mode: assembly.mode, tools: names })
      tools = names
      const step = await generateText({
        model,
        system: text,
        messages,
        tools: aiSdkTools(ctx, view),
        toolApproval: aiSdkToolApproval(ctx, view),
        stopWhen: stepCountIs(1),
        abortSignal: signal,
      })
      // The approved calls of the last turn ran first, before this turn's model call.
      for (const call of waiting) showResult(call)
      waiting = []
      messages.push(...step.responseMessages)
      for (const call of step.toolCalls) {
        for (const context of published.get(call.toolCallId)?.additionalContexts ?? [])
          messages.push({
            role: 'user',
            content: `<context source="${context.source}">\n${context.text}\n</context>`,
          })
      }
      const calls: ToolCallRequest[] = step.toolCalls.map((call) => ({
        id: call.toolCallId,
        name: call.toolName,
        arguments: call.input as JsonValue,
      }))
      if (calls.length === 0) {
        report({ type: 'final', turn, text: step.text })
        return { turns: turn, finalText: step.text, messages: seen.conversation, results }
      }
      if (step.text) report({ type: 'assistant', turn, text: step.text })
      const requests = step.content.flatMap((part) => (part.type === 'tool-approval-request' ? [part] : []))
      for (const call of calls) {
        const request = requests.find((part) => part.toolCall.toolCallId === call.id)
        if (request === undefined) showResult(call)
        else waiting.push(call)
      }
      if (requests.length > 0) {
        const responses = []
        for (const request of requests) {
          const call = calls.find((candidate) => candidate.id === request.toolCall.toolCallId)!
          const { approved, reason } = await answer(ctx, call, request.reason)
          responses.push({
            type: 'tool-approval-response' as const,
            approvalId: request.approvalId,
            approved,
            ...(reason ? { reason } : {}),
          })
        }
        messages.push({ role: 'tool', content: responses })
      }
    }
  } finally {
    for (const stop of stops) stop()
  }
  report({ type: 'final', turn: maxTurns, text: '(stopped: turn limit reached)' })
  return { turns: maxTurns, finalText: '(stopped: turn limit reached)', messages: seen.conversation, results }
}

/** A call's cards: the call, its Code Mode sub-calls and progress, its result (denied: no result). */
function showCall(
  ctx: Context,
  agent: ScopeKey | undefined,
  call: ToolCallRequest,
  result: ToolExecutionResult | undefined,
  subCalls: SubCallLog,
  progress: ProgressLog,
  report: (event: LoopEvent) => void,
  results: { call: ToolCallRequest; result: ToolExecutionResult }[],
): void {
  report({
    type: 'call',
    callId: call.id,
    name: call.name,
    view: callView(ctx, call.name, call.arguments, agent),
  })
  subCalls.flush(ctx, call.id, agent, report)
  for (const text of progress.of(call.id)) report({ type: 'progress', callId: call.id, text })
  if (result === undefined) {
    report({
      type: 'result',
      callId: call.id,
      name: call.name,
      view: { card: 'generic', title: 'error', content: 'not approved: the AI SDK sent execution-denied' },
      isError: true,
      code: 'DENIED',
    })
    return
  }
  results.push({ call, result })
  report({
    type: 'result',
    callId: call.id,
    name: call.name,
    view: resultView(ctx, call.name, call.arguments, result, result.meta, agent),
    isError: result.isError,
    ...(result.isError && result.error.info ? { code: result.error.info.code } : {}),
  })
  for (const context of result.additionalContexts ?? [])
    report({ type: 'context', source: context.source, text: context.text })
}

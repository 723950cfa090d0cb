/**
 * The four providers' response shapes, as their API references document them (OpenAI
 * `ChatCompletion` and `Response`, Anthropic `Message`, Gemini `GenerateContentResponse`).
 */
import type { AssistantTurn } from './model'
import { argumentText, requiredOf, type WireCodec } from './wire-codec'

export const openAIChatCodec: WireCodec<'openai-chat'> = {
  start: (system, task) => [
    { role: 'system', content: system },
    { role: 'user', content: task },
  ],
  response: (turn: AssistantTurn, n, tools) => {
    const calls = argumentText(
      turn,
      tools.map((tool) => ({
        name: tool.function.name,
        strict: tool.function.strict,
        required: requiredOf(tool.function.parameters),
      })),
    )
    return {
      id: `chatcmpl-demo-${n}`,
      object: 'chat.completion',
      created: 1_700_000_000 + n,
      model: 'scripted',
      choices: [
        {
          index: 0,
          finish_reason: calls.length > 0 ? 'tool_calls' : 'stop',
          logprobs: null,
          message: {
            role: 'assistant',
            content: turn.text === '' ? null : turn.text,
            refusal: null,
            ...(calls.length > 0
              ? {
                  tool_calls: calls.map((call) => ({
                    id: call.id,
                    type: 'function' as const,
                    function: { name: call.name, arguments: call.text },
                  })),
                }
              : {}),
          },
        },
      ],
    }
  },
  assistant: (response) =>
    response.choices[0] ? [response.choices[0].message as Record<string, unknown>] : [],
  resultTexts: (messages) =>
    messages.flatMap((m) => (m.role === 'tool' ? [[m.tool_call_id, m.content]] : [])),
}

export const openAIResponsesCodec: WireCodec<'openai-responses'> = {
  start: (system, task) => [
    { type: 'message', role: 'developer', content: system },
    { type: 'message', role: 'user', content: task },
  ],
  response: (turn, n, tools) => ({
    id: `resp_demo_${n}`,
    object: 'response',
    status: 'completed',
    model: 'scripted',
    output: [
      ...(turn.text === ''
        ? []
        : [
            {
              type: 'message',
              id: `msg_demo_${n}`,
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text: turn.text, annotations: [] }],
            },
          ]),
      ...argumentText(
        turn,
        tools.map((tool) => ({
          name: tool.name,
          strict: tool.strict,
          required: requiredOf(tool.parameters),
        })),
      ).map((call) => ({
        type: 'function_call' as const,
        id: `fc_${call.id}`,
        call_id: call.id,
        name: call.name,
        arguments: call.text,
        status: 'completed',
      })),
    ],
  }),
  assistant: (response) => response.output.map((item) => item as Record<string, unknown>),
  resultTexts: (messages) =>
    messages.flatMap((m) =>
      m.type === 'function_call_output'
        ? [
            [
              m.call_id,
              typeof m.output === 'string'
                ? m.output
                : m.output.flatMap((part) => (part.type === 'input_text' ? [part.text] : [])).join('\n'),
            ],
          ]
        : [],
    ),
}

export const anthropicCodec: WireCodec<'anthropic'> = {
  // the system prompt is the request's `system` parameter, not a message
  start: (_system, task) => [{ role: 'user', content: task }],
  response: (turn, n) => ({
    id: `msg_demo_${n}`,
    type: 'message',
    role: 'assistant',
    model: 'scripted',
    stop_reason: turn.toolCalls.length > 0 ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    content: [
      ...(turn.text === '' ? [] : [{ type: 'text' as const, text: turn.text, citations: null }]),
      ...turn.toolCalls.map((call) => ({
        type: 'tool_use' as const,
        id: call.id,
        name: call.name,
        input: call.arguments,
        caller: { type: 'direct' },
      })),
    ],
  }),
  assistant: (response) => [{ role: 'assistant', content: response.content }],
  resultTexts: (messages) =>
    messages.flatMap((m) =>
      m.content.flatMap((block): [string, string][] =>
        block.type === 'tool_result'
          ? [
              [
                block.tool_use_id,
                block.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n'),
              ],
            ]
          : [],
      ),
    ),
}

export const geminiCodec: WireCodec<'gemini'> = {
  // the system prompt is the request's `systemInstruction`
  start: (_system, task) => [{ role: 'user', parts: [{ text: task }] }],
  response: (turn) => ({
    candidates: [
      {
        finishReason: 'STOP',
        content: {
          role: 'model',
          // text parts are not what the helpers read: the response type lists function calls only
          parts: [
            ...(turn.text === '' ? [] : [{ text: turn.text }]),
            ...turn.toolCalls.map((call) => ({
              functionCall: { id: call.id, name: call.name, args: call.arguments },
            })),
          ] as { functionCall?: { id: string; name: string; args: unknown } }[],
        },
      },
    ],
  }),
  assistant: (response) => {
    const content = response.candidates?.[0]?.content
    return content === undefined ? [] : [content as Record<string, unknown>]
  },
  resultTexts: (messages) =>
    messages.flatMap((m) =>
      m.parts.flatMap((part): [string, string][] => {
        if (!('functionResponse' in part)) return []
        const { id, name, response } = part.functionResponse
        return [[id ?? name, 'output' in response ? response.output : response.error]]
      }),
    ),
}

// `--openai` over real HTTP: the live adapter talks to a local fake chat-completions endpoint
// (the one allowed fake: the LLM endpoint). The fake reads the conversation it is sent — tool
// messages as @dsh/tools-providers wrote them — and answers with the scripted model's turns as
// ChatCompletion JSON, so the whole native run crosses the wire both ways.
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChatMessage, ModelRequest } from '../src/model'
import { OpenAIChatModel } from '../src/openai-model'
import { runDemo, scriptedModelFor } from '../src/run-demo'
import { openAIChatCodec } from '../src/wire-codecs'

interface WireMessage {
  role: string
  content?: unknown
  tool_call_id?: string
}
interface WireTool {
  type: string
  function: { name: string; strict: boolean; parameters: { additionalProperties?: unknown } }
}

const script = scriptedModelFor('native')
const requests: { tools: WireTool[]; messages: WireMessage[] }[] = []

async function body(request: IncomingMessage): Promise<string> {
  let text = ''
  for await (const chunk of request) text += chunk
  return text
}

/** The conversation as the model reads it: the tool messages' text is what the scripts need. */
function chatView(messages: readonly WireMessage[], tools: readonly WireTool[]): ModelRequest {
  const chat: ChatMessage[] = messages.flatMap((message): ChatMessage[] =>
    message.role === 'tool'
      ? [
          {
            role: 'tool',
            toolCallId: message.tool_call_id!,
            name: '',
            content: String(message.content),
            isError: false,
          },
        ]
      : [],
  )
  return {
    messages: chat,
    tools: tools.map((tool) => ({
      name: tool.function.name,
      description: '',
      parameters: { type: 'object' },
    })),
  }
}

const server = createServer(async (request, response) => {
  const sent = JSON.parse(await body(request)) as { tools?: WireTool[]; messages: WireMessage[] }
  requests.push({ tools: sent.tools ?? [], messages: sent.messages })
  const turn = await script.next(chatView(sent.messages, sent.tools ?? []), new AbortController().signal)
  response.setHeader('content-type', 'application/json')
  response.end(JSON.stringify(openAIChatCodec.response(turn, requests.length, (sent.tools ?? []) as never)))
})

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
})
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

describe('--openai through @dsh/tools-providers', { timeout: 240_000 }, () => {
  it('strict tools go out, calls come back, results go out as tool messages, and the bug is fixed', async () => {
    const { port } = server.address() as AddressInfo
    const live = new OpenAIChatModel({
      apiKey: 'test',
      baseUrl: `http://127.0.0.1:${port}/v1`,
      model: 'fake-gpt',
    })
    const run = await runDemo({
      mode: 'native',
      live: { model: live.name, loop: live.loop },
    })
    expect(run.after.passed).toBe(true)
    expect(run.model).toBe('fake-gpt')
    expect(requests).toHaveLength(7)
    // strict function tools in the openai-strict dialect (the old adapter sent neither)
    for (const tool of requests[0]!.tools) {
      expect(tool.type).toBe('function')
      expect(tool.function.strict).toBe(true)
      expect(tool.function.parameters.additionalProperties).toBe(false)
    }
    const last = requests.at(-1)!.messages
    expect(last[0]).toMatchObject({ role: 'system' })
    expect(last.filter((message) => message.role === 'tool').map((message) => message.tool_call_id)).toEqual(
      run.outcome.results.map((entry) => entry.call.id),
    )
  })
})

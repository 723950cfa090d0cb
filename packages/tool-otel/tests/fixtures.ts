import { Context } from '@deepseek-ai/cordis'
import ToolRuntime, { defineTool, type ToolExecutionInput, type ToolRuntimeConfig } from '@dsh/tools-core'
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base'
import ToolOtel, { type ToolOtelConfig } from '../src/index'

/** A real SDK provider recording into memory. */
export function memoryTracing() {
  const exporter = new InMemorySpanExporter()
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
  return { exporter, provider, tracer: provider.getTracer('test') }
}

/** A root app with the runtime and the plugin on `tracer`. */
export async function tracedApp(config: ToolOtelConfig = {}, runtime: ToolRuntimeConfig = {}) {
  const tracing = memoryTracing()
  const ctx = new Context()
  await ctx.plugin(ToolRuntime, runtime)
  await ctx.plugin(ToolOtel, { tracer: tracing.tracer, ...config })
  return { ctx, ...tracing, spans: () => tracing.exporter.getFinishedSpans() }
}

export const textOutput = {
  schema: { type: 'string' },
  render: (_args: unknown, value: string) => [{ type: 'text' as const, text: value }],
} as const

/** `echo({ text })` → text; concurrency-safe. */
export const echo = defineTool({
  name: 'echo',
  description: 'Echo the text back.',
  parameters: { text: { type: 'string', required: true } },
  isConcurrencySafe: () => true,
  output: textOutput,
  execute: (args) => args.text,
})

/** `fail()` always throws. */
export const fail = defineTool({
  name: 'fail',
  description: 'Always fails.',
  parameters: {},
  output: textOutput,
  execute: (): string => {
    throw new Error('broken on purpose')
  },
})

let counter = 0
/** A fresh execution input. */
export function input(
  name: string,
  args: unknown = {},
  extra: Partial<ToolExecutionInput> = {},
): ToolExecutionInput {
  return {
    callId: `call-${++counter}`,
    name,
    arguments: args,
    signal: new AbortController().signal,
    ...extra,
  }
}

/** Names of a span's events, in order. */
export const eventNames = (span: ReadableSpan) => span.events.map((e) => e.name)

/** The span with this call id. */
export function byCallId(spans: readonly ReadableSpan[], callId: string): ReadableSpan {
  const span = spans.find((s) => s.attributes['gen_ai.tool.call.id'] === callId)
  if (span === undefined) throw new Error(`no span for ${callId}`)
  return span
}

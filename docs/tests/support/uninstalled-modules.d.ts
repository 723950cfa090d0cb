// Packages a README sample imports that the workspace does not install: the part of their API
// the samples use, so the rest of those samples is still checked.

declare module '@opentelemetry/sdk-trace-node' {
  import type { TracerConfig } from '@opentelemetry/sdk-trace-base'
  /** `@opentelemetry/sdk-trace-node` 2.x: a tracer provider that `register()`s itself globally. */
  export class NodeTracerProvider {
    constructor(config?: TracerConfig)
    register(): void
  }
}

declare module '@ai-sdk/openai' {
  import type { LanguageModel } from 'ai'
  /** `@ai-sdk/openai` 3.x: the default OpenAI provider, called with a model id. */
  export function openai(modelId: string): LanguageModel
}

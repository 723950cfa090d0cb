import type { Context } from '@deepseek-ai/cordis'
import { type ScopeKey, scopeOf } from '@dsh/tools-core'
import { type JSONSchema7, jsonSchema, type Tool, type ToolSet } from 'ai'
import { executeThroughPipeline } from './execute-through-pipeline'
import { probePolicy } from './policy-probe'
import { toModelOutput } from './to-model-output'
import type { AiSdkOptions, AiSdkToolOutput } from './types'

/** The tools `aiSdkTools` built: `aiSdkToolApproval` asks the policy about these only. */
export const pipelineTools = new WeakSet<object>()

/** The agent an option bag names, else the scope of `ctx`. */
export function agentOf(ctx: Context, options: AiSdkOptions | undefined): ScopeKey | undefined {
  return options?.agent ?? scopeOf(ctx)
}

/**
 * The registry as a Vercel AI SDK `ToolSet` for `generateText` / `streamText` (ai 7): every
 * native tool the agent's mode contributes — its visible tools, or `run_code` in code mode —
 * with `inputSchema: jsonSchema(parameters)`. Each `execute` runs `ctx.tools.execute` (the whole
 * pipeline: validation, policy, guards, wrappers, body, post-policy), streams progress as
 * preliminary results, and throws failures as {@link AiSdkToolError} (message and code).
 * `toModelOutput` sends the pipeline's content parts (text, images). A call the policy asks
 * about becomes the AI SDK's tool-approval request: pass `toolApproval: aiSdkToolApproval(ctx)`
 * (or rely on each tool's `needsApproval`). Built from the registry as it is now: call it again
 * after registrations change.
 *
 * @example
 * const result = await generateText({
 *   model, prompt, tools: aiSdkTools(ctx), toolApproval: aiSdkToolApproval(ctx), stopWhen: stepCountIs(5),
 * })
 */
export function aiSdkTools(ctx: Context, options?: AiSdkOptions): ToolSet {
  const agent = agentOf(ctx, options)
  const assembly = ctx.tools.assemble(agent === undefined ? {} : { agent })
  const tools: ToolSet = {}
  for (const spec of assembly.tools) {
    const name = spec.name
    const definition: Tool<unknown, AiSdkToolOutput> = {
      description: spec.description,
      inputSchema: jsonSchema<unknown>(spec.parameters as JSONSchema7),
      execute: executeThroughPipeline(ctx, agent, name),
      toModelOutput,
      // For callers that do not pass `toolApproval` (which takes precedence when they do).
      needsApproval: async (input, { toolCallId }) =>
        (await probePolicy(ctx, agent, { toolCallId, toolName: name, input })) !== undefined,
    }
    pipelineTools.add(definition)
    // Defined, not assigned: `__proto__` is a valid tool name, and an assignment would set the
    // tool set's prototype instead of adding the tool.
    Object.defineProperty(tools, name, {
      value: definition,
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  return tools
}

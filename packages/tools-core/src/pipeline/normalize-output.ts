import { type JsonValue, snapshotJson } from '@dsh/tools-schema'
import { InvalidOutputError } from '../errors'
import type { CompiledTool } from '../internal/compiled-tool'
import type { ToolExecution, ToolExecutionResult, ToolSuccess } from '../types'
import { failureOf, freezeContent, messageOf } from './results'

function invalid(message: string): ToolExecutionResult {
  return failureOf(new InvalidOutputError(message))
}

/**
 * Normalize a canonical value under a tool's output declaration: snapshot it as lossless JSON,
 * validate it against `output.schema`, keep it deep-frozen, render it to content and (for
 * top-level calls) derive `presentationMeta`. Any problem is an `INVALID_OUTPUT` failure.
 */
export function normalizeOutput(
  tool: CompiledTool,
  execution: ToolExecution,
  value: unknown,
): ToolExecutionResult {
  const name = tool.name
  let canonical: JsonValue
  try {
    canonical = snapshotJson(value)
  } catch (error) {
    return invalid(`tool \`${name}\` returned a value that is not lossless JSON: ${messageOf(error)}`)
  }
  const violations = tool.checkOutput(canonical)
  if (violations.length > 0) {
    const listed = violations.slice(0, 10).map((v) => `${v.path}: ${v.message}`)
    return invalid(`tool \`${name}\` returned a value that violates its output schema: ${listed.join('; ')}`)
  }
  const output = tool.definition.output
  let content: ReturnType<typeof freezeContent>
  try {
    content = freezeContent(output.render(execution.arguments, canonical))
  } catch (error) {
    return invalid(`output.render of \`${name}\` failed: ${messageOf(error)}`)
  }
  if (typeof content === 'string')
    return invalid(`output.render of \`${name}\` returned invalid content: ${content}`)
  if (execution.parent !== undefined || output.presentationMeta === undefined) {
    return Object.freeze({ isError: false as const, value: canonical, content })
  }
  let meta: JsonValue
  try {
    const derived = output.presentationMeta(execution.arguments, canonical)
    // `undefined` means "no meta for this result"; anything else must be lossless JSON.
    if (derived === undefined) return Object.freeze({ isError: false as const, value: canonical, content })
    meta = snapshotJson(derived)
  } catch (error) {
    return invalid(`output.presentationMeta of \`${name}\` failed: ${messageOf(error)}`)
  }
  const result: ToolSuccess = { isError: false, value: canonical, content, meta }
  return Object.freeze(result)
}

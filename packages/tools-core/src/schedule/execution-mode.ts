import { type JsonValue, snapshotJson } from '@dsh/tools-schema'
import type { CompiledTool } from '../internal/compiled-tool'
import { resolveTool } from '../pipeline/prepare-call'
import type { ValueLimits } from '../pipeline/value-limits'
import type { ToolRegistry } from '../registry'
import type { ScopeKey, ToolExecutionInput, ToolExecutionMode } from '../types'

/**
 * `parallel` only when `isConcurrencySafe(args)` returns exactly `true` for valid arguments, or,
 * without a classifier, when the definition is annotated `readOnly: true`.
 */
export function classify(tool: CompiledTool, args: JsonValue): ToolExecutionMode {
  const definition = tool.definition
  // Nothing could make it `parallel`: skip the argument check.
  if (definition.isConcurrencySafe === undefined && definition.annotations?.readOnly !== true)
    return 'exclusive'
  try {
    if (tool.checkArgs(args).length > 0) return 'exclusive'
  } catch {
    return 'exclusive'
  }
  return classifyValid(tool, args)
}

/**
 * {@link classify} for arguments already found valid for `tool` (a prepared call's frozen
 * arguments): the check is not run twice.
 */
export function classifyValid(tool: CompiledTool, args: JsonValue): ToolExecutionMode {
  const classifier = tool.definition.isConcurrencySafe
  if (classifier === undefined)
    return tool.definition.annotations?.readOnly === true ? 'parallel' : 'exclusive'
  try {
    return classifier.call(tool.definition, args) === true ? 'parallel' : 'exclusive'
  } catch {
    return 'exclusive'
  }
}

/**
 * The scheduling class of a call as the agent sees it. Unknown, hidden, gated, undeclared,
 * invalid-argument (past the runtime's `valueLimits` included) or throwing classifications are all
 * `exclusive`.
 */
export function executionModeOf(
  registry: ToolRegistry,
  input: ToolExecutionInput,
  agent: ScopeKey | undefined,
  limits: ValueLimits,
): ToolExecutionMode {
  try {
    const tool = resolveTool(registry, input.name, agent, input.parent !== undefined)
    if (typeof tool === 'string') return 'exclusive'
    return classify(tool, snapshotJson(input.arguments, input.parent === undefined ? limits : undefined))
  } catch {
    return 'exclusive'
  }
}

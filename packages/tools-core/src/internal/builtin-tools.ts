import type { DeferredTools } from '../deferred/deferred-tools'
import { toolSearchTool } from '../deferred/tool-search-tool'
import type { ToolRegistry } from '../registry'
import type { BuiltinTool } from '../resolution/agent-view'
import { READ_RESULT_TOOL_NAME, readResultTool } from '../result-budget/read-result-tool'
import type { ResultBudget } from '../result-budget/result-budget'
import { compileTool } from './compiled-tool'

/**
 * The runtime's own tools: `read_result` (always present when a budget is configured) and
 * `tool_search` (present for an agent while it has deferred tools it has not loaded).
 */
export function builtinTools(
  registry: ToolRegistry,
  deferred: DeferredTools,
  budget: ResultBudget | undefined,
): readonly BuiltinTool[] {
  const search = toolSearchTool({
    deferredFor: (agent) => registry.view(agent).deferred,
    load: (names, agent) => deferred.load(names, agent),
  })
  const builtins: BuiltinTool[] = [{ tool: compileTool(search), present: (_agent, deferring) => deferring }]
  if (budget !== undefined) {
    const read = readResultTool(
      (handle, agent) => budget.lookup(handle, agent),
      () => budget.limitFor(READ_RESULT_TOOL_NAME),
    )
    builtins.unshift({ tool: compileTool(read), present: () => true })
  }
  return Object.freeze(builtins)
}

import type { ScopeKey, ToolExecution, ToolExecutionResult } from '../types'
import { budgetContent } from './budget-content'
import type { ResolvedResultBudget } from './config'
import type { HandleNote } from './markers'
import { READ_RESULT_TOOL_NAME } from './read-result-tool'
import { ResultStore } from './result-store'
import { utf8Length } from './utf8'

/**
 * The runtime's result budget: caps each top-level result's model-facing content after
 * `finalizeContent` and keeps the full text behind a handle. Nested (Code Mode) calls are
 * left alone: their content never reaches the model, and their values are never cut.
 */
export class ResultBudget {
  /** The handle store shared by every agent (entries are scoped to the agent that made them). */
  readonly store: ResultStore

  constructor(readonly config: ResolvedResultBudget) {
    this.store = new ResultStore(config.storeBytes)
  }

  /** The cap for one tool. */
  limitFor(name: string): number {
    return this.config.perTool.get(name) ?? this.config.maxContentBytes
  }

  /** The result with its content cut to the tool's cap (the same object when it fits). */
  apply(execution: ToolExecution, result: ToolExecutionResult): ToolExecutionResult {
    if (execution.parent !== undefined || execution.name === READ_RESULT_TOOL_NAME) return result
    const agent: ScopeKey | undefined = execution.agent
    const content = budgetContent(result.content, this.limitFor(execution.name), (document) => {
      const bytes = utf8Length(document)
      const handle = this.store.put(document, agent, bytes)
      const note: HandleNote =
        handle === undefined
          ? { notKept: `${bytes} bytes exceed the result store (${this.store.capacity} bytes)` }
          : { handle }
      return note
    })
    return content === undefined ? result : Object.freeze({ ...result, content })
  }
}

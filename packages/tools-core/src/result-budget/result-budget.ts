import type { ToolStateStore } from '../store/tool-state-store'
import type { ScopeKey, ToolContent, ToolExecution, ToolExecutionResult } from '../types'
import { budgetContent } from './budget-content'
import type { ResolvedResultBudget } from './config'
import type { HandleNote } from './markers'
import { READ_RESULT_TOOL_NAME } from './read-result-tool'
import { mintHandle, ResultStore, type StoreLookup } from './result-store'
import { keepForCall, readResult } from './stored-results'
import { utf8Length } from './utf8'

/** A text to keep in the durable store once the content is cut. */
interface Keeping {
  readonly durable: ToolStateStore
  readonly handle: string
  readonly document: string
}

/**
 * The runtime's result budget: caps each top-level result's model-facing content after
 * `finalizeContent` and keeps the full text behind a handle. Nested (Code Mode) calls are
 * left alone: their content never reaches the model, and their values are never cut.
 *
 * Where the text is kept is decided per cut: in the `ToolStateStore` when one is loaded at that
 * moment (`toolStore()` looks it up per use; stores may come and go at runtime), else in this
 * process's LRU — the path without a store stays synchronous and costs what it always did.
 */
export class ResultBudget {
  /** The in-memory handle store shared by every agent (entries are scoped to the agent that made them). */
  readonly store: ResultStore

  constructor(
    readonly config: ResolvedResultBudget,
    private readonly toolStore: () => ToolStateStore | undefined = () => undefined,
  ) {
    this.store = new ResultStore(config.storeBytes)
  }

  /** The cap for one tool. */
  limitFor(name: string): number {
    return this.config.perTool.get(name) ?? this.config.maxContentBytes
  }

  /**
   * The result with its content cut to the tool's cap (the same object when it fits). A
   * promise only when the text goes to a `ToolStateStore`; it never rejects: when the store
   * cannot keep the text (or the caller aborts before it has), the result is still returned,
   * cut, its markers saying so.
   */
  apply(
    execution: ToolExecution,
    result: ToolExecutionResult,
  ): ToolExecutionResult | Promise<ToolExecutionResult> {
    if (execution.parent !== undefined || execution.name === READ_RESULT_TOOL_NAME) return result
    const agent: ScopeKey | undefined = execution.agent
    const limit = this.limitFor(execution.name)
    // Filled in only when the content is cut: a result that fits costs no store lookup.
    let keeping: Keeping | undefined
    const content = budgetContent(result.content, limit, (document) => {
      const bytes = utf8Length(document)
      if (bytes > this.store.capacity) {
        return { notKept: `${bytes} bytes exceed the result store (${this.store.capacity} bytes)` }
      }
      const durable = this.toolStore()
      if (durable === undefined) return { handle: this.store.put(document, agent, bytes)! }
      keeping = { durable, handle: mintHandle(), document }
      return { handle: keeping.handle }
    })
    if (content === undefined) return result
    // TypeScript cannot see the callback's assignment.
    const kept = keeping as Keeping | undefined
    if (kept === undefined) return withContent(result, content)
    const { durable, handle, document } = kept
    return keepForCall(durable, handle, agent, document, this.config.ttlMs, execution.signal).then(
      (notKept) => {
        if (notKept === undefined) return withContent(result, content)
        // Never lose the call's result: cut it again, its markers saying the text was not kept.
        const note: HandleNote = { notKept }
        return withContent(result, budgetContent(result.content, limit, () => note)!)
      },
    )
  }

  /**
   * The text behind `handle` for `agent`: from this process's LRU, else from the store loaded
   * now (a promise then, rejecting with `StoreUnavailableError` when the store fails).
   */
  lookup(handle: string, agent: ScopeKey | undefined): StoreLookup | Promise<StoreLookup> {
    const local = this.store.get(handle, agent)
    if (local.found || local.reason === 'expired') return local
    const durable = this.toolStore()
    return durable === undefined ? local : readResult(durable, handle, agent)
  }
}

function withContent(result: ToolExecutionResult, content: ToolContent): ToolExecutionResult {
  return Object.freeze({ ...result, content })
}

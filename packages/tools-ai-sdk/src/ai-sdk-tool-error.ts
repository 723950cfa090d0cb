import { type ToolExecutionResult, ToolsError } from '@dsh/tools-core'

type Failure = Extract<ToolExecutionResult, { isError: true }>

/**
 * A failed call, thrown from a tool's `execute` so the AI SDK reports it as a tool error
 * (`tool-error` part; the model sees `message`). It carries the pipeline's message and code
 * (`INVALID_ARGS`, `DENIED`, `APPROVAL_PENDING`, …) and the whole failure result, content and
 * `pending` ticket included.
 */
export class AiSdkToolError extends ToolsError {
  /** The pipeline's failure result, as `ctx.tools.execute` returned it. */
  readonly result: Failure

  constructor(result: Failure) {
    super(result.error.info?.code ?? 'TOOL_FAILED', result.error.message)
    this.result = result
  }

  /**
   * The failure's model-facing text, exactly as the pipeline rendered it (`Error: <message>`,
   * a code run's captured output, the approval-pending notice). The AI SDK sends a tool
   * error to the model as `String(error)`, so the model reads what any other loop would show it.
   */
  override toString(): string {
    const text = this.result.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n')
    return text === '' ? `Error: ${this.message}` : text
  }
}

import type {
  ToolExecution,
  ToolExecutionResult,
  ToolExecutionToken,
  ToolProgressUpdate,
  ToolStageEvent,
} from '@dsh/tools-core'
import {
  type Attributes,
  context,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api'
import { ToolSpanAttributes as A, ToolSpanEvents as E } from './attributes'
import { contentBytes, jsonBytes } from './sizes'
import { SpanClock } from './span-clock'

/**
 * The most characters a captured payload attribute keeps: a tool returning megabytes must not
 * turn every span into megabytes of exporter traffic. Longer payloads are cut and say so.
 */
export const MAX_CAPTURED_PAYLOAD_CHARS = 16_384

function captured(json: string): string {
  if (json.length <= MAX_CAPTURED_PAYLOAD_CHARS) return json
  return `${json.slice(0, MAX_CAPTURED_PAYLOAD_CHARS)}… [${json.length - MAX_CAPTURED_PAYLOAD_CHARS} chars cut]`
}

/** What {@link SpanTracker} needs besides the tracer. */
export interface SpanTrackerOptions {
  /** Record arguments, content and progress messages on spans (default off: sizes only). */
  readonly capturePayloads: boolean
  /** The visible description of a tool, if any (`ctx.tools.get(name, agent)?.description`). */
  readonly describe: (execution: ToolExecution) => string | undefined
}

/** An open span and the clock of its tree. */
interface OpenSpan {
  readonly span: Span
  readonly clock: SpanClock
}

/**
 * One span per tool call, keyed by the execution's token: opened at the call's `start` stage,
 * annotated with one event per later stage, closed by its `tools/result`. A call with a
 * `parent` (a Code Mode sub-call) becomes a child of the parent's span while that is open, and
 * shares its clock (see {@link SpanClock}), so a child never ends after its parent.
 */
export class SpanTracker {
  private readonly open = new Map<ToolExecutionToken, OpenSpan>()

  /**
   * @param tracer — where spans come from.
   * @param options — payload capture and the description lookup.
   */
  constructor(
    private readonly tracer: Tracer,
    private readonly options: SpanTrackerOptions,
  ) {}

  /** The number of spans not ended yet (diagnostics and tests). */
  get size(): number {
    return this.open.size
  }

  /** Handle one `tools/stage` event. */
  stage(execution: ToolExecution, event: ToolStageEvent): void {
    if (event.stage === 'start') {
      this.start(execution)
      return
    }
    const open = this.open.get(execution.token)
    if (open === undefined) return
    switch (event.stage) {
      case 'decision':
        this.event(
          open,
          E.DECISION,
          this.withReason({ [A.DECISION]: event.decision, [A.DECISION_SOURCE]: event.source }, event.reason),
        )
        return
      case 'approval-start':
        this.event(open, E.APPROVAL_START, this.withReason({}, event.reason))
        return
      case 'approval-end':
        this.event(open, E.APPROVAL_END, this.withReason({ [A.APPROVED]: event.approved }, event.reason))
        return
      case 'body-start':
        this.event(open, E.BODY_START)
        return
      case 'body-end':
        this.event(open, E.BODY_END, { [A.IS_ERROR]: event.isError })
        return
      case 'post-decision':
        this.event(open, E.POST_DECISION, { [A.DECISION]: event.decision })
        return
    }
  }

  /** Handle one `tools/progress` event. */
  progress(execution: ToolExecution, update: ToolProgressUpdate): void {
    const open = this.open.get(execution.token)
    if (open === undefined) return
    const attributes: Attributes = {}
    if (update.progress !== undefined) attributes[A.PROGRESS] = update.progress
    if (update.total !== undefined) attributes[A.PROGRESS_TOTAL] = update.total
    if (this.options.capturePayloads && update.message !== undefined)
      attributes[A.PROGRESS_MESSAGE] = update.message
    this.event(open, E.PROGRESS, attributes)
  }

  /** Handle the call's `tools/result`: sizes, status, end. */
  end(execution: ToolExecution, result: ToolExecutionResult): void {
    const open = this.open.get(execution.token)
    if (open === undefined) return
    this.open.delete(execution.token)
    const { span, clock } = open
    span.setAttribute(A.CONTENT_BYTES, contentBytes(result.content))
    span.setAttribute(A.IS_ERROR, result.isError)
    if (this.options.capturePayloads)
      span.setAttribute(A.TOOL_CALL_RESULT, captured(JSON.stringify(result.content)))
    if (result.isError) {
      // A failure message may quote the arguments or the result ("cannot read /home/u/.ssh/id_rsa"):
      // without payload capture the status says only the code.
      const code = result.error.info?.code ?? '_OTHER'
      span.setAttribute(A.ERROR_TYPE, code)
      const message = this.options.capturePayloads ? result.error.message : code
      span.setStatus({ code: SpanStatusCode.ERROR, message })
    }
    span.end(clock.now())
  }

  /** End every open span (the plugin is being disposed mid-call). */
  endAll(): void {
    for (const { span, clock } of this.open.values()) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'tracing ended before the call' })
      span.end(clock.now())
    }
    this.open.clear()
  }

  private start(execution: ToolExecution): void {
    const attributes: Attributes = {
      [A.OPERATION_NAME]: 'execute_tool',
      [A.TOOL_NAME]: execution.name,
      [A.TOOL_CALL_ID]: execution.callId,
      [A.TOOL_TYPE]: 'function',
      [A.ARGUMENTS_BYTES]: jsonBytes(execution.arguments),
    }
    const description = this.options.describe(execution)
    if (description !== undefined) attributes[A.TOOL_DESCRIPTION] = description
    if (execution.agent !== undefined) attributes[A.AGENT] = execution.agent
    if (this.options.capturePayloads)
      attributes[A.TOOL_CALL_ARGUMENTS] = captured(JSON.stringify(execution.arguments))
    const parent = execution.parent === undefined ? undefined : this.open.get(execution.parent)
    const clock = parent?.clock ?? new SpanClock()
    const span = this.tracer.startSpan(
      `execute_tool ${execution.name}`,
      { kind: SpanKind.INTERNAL, attributes, startTime: clock.now() },
      parent === undefined ? context.active() : trace.setSpan(context.active(), parent.span),
    )
    this.open.set(execution.token, { span, clock })
  }

  /** One event on an open span, at its tree's time. */
  private event(open: OpenSpan, name: string, attributes: Attributes = {}): void {
    open.span.addEvent(name, attributes, open.clock.now())
  }

  /**
   * A policy reason, only with payload capture: guards and listeners word reasons from the
   * arguments (`argument "/srv/.env" is off limits`).
   */
  private withReason(attributes: Attributes, reason: string | undefined): Attributes {
    if (reason !== undefined && this.options.capturePayloads) attributes[A.REASON] = reason
    return attributes
  }
}

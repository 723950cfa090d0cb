/**
 * Attribute and event names the spans carry. The `gen_ai.*` names follow the OpenTelemetry
 * GenAI semantic conventions for tool execution; `dsh.tool.*` names are this package's own
 * (stage events and sizes the conventions have no name for).
 */
export const ToolSpanAttributes = Object.freeze({
  OPERATION_NAME: 'gen_ai.operation.name',
  TOOL_NAME: 'gen_ai.tool.name',
  TOOL_CALL_ID: 'gen_ai.tool.call.id',
  TOOL_DESCRIPTION: 'gen_ai.tool.description',
  TOOL_TYPE: 'gen_ai.tool.type',
  /** Opt-in payload (`capturePayloads`): the call's arguments as JSON. */
  TOOL_CALL_ARGUMENTS: 'gen_ai.tool.call.arguments',
  /** Opt-in payload (`capturePayloads`): the model-facing content as JSON. */
  TOOL_CALL_RESULT: 'gen_ai.tool.call.result',
  ERROR_TYPE: 'error.type',
  AGENT: 'dsh.tool.agent',
  ARGUMENTS_BYTES: 'dsh.tool.arguments.bytes',
  CONTENT_BYTES: 'dsh.tool.content.bytes',
  IS_ERROR: 'dsh.tool.is_error',
  DECISION: 'dsh.tool.decision',
  DECISION_SOURCE: 'dsh.tool.decision.source',
  REASON: 'dsh.tool.reason',
  APPROVED: 'dsh.tool.approved',
  PROGRESS: 'dsh.tool.progress',
  PROGRESS_TOTAL: 'dsh.tool.progress.total',
  PROGRESS_MESSAGE: 'dsh.tool.progress.message',
} as const)

/** Names of the span events, one per observable stage of a call. */
export const ToolSpanEvents = Object.freeze({
  DECISION: 'dsh.tool.decision',
  APPROVAL_START: 'dsh.tool.approval.start',
  APPROVAL_END: 'dsh.tool.approval.end',
  BODY_START: 'dsh.tool.body.start',
  BODY_END: 'dsh.tool.body.end',
  POST_DECISION: 'dsh.tool.post_decision',
  PROGRESS: 'dsh.tool.progress',
} as const)

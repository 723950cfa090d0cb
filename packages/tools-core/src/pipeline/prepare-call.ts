import {
  JsonBudgetError,
  type JsonValue,
  LosslessJsonError,
  PROVIDER_DIALECTS,
  providerArgsToCanonical,
  snapshotJson,
  ToolArgsError,
} from '@dsh/tools-schema'
import { UnknownToolError } from '../errors'
import { unknownToolMessage } from '../internal/closest-names'
import type { CompiledTool } from '../internal/compiled-tool'
import { missingTransportMessage } from '../internal/missing-code-mode'
import { RESERVED_TOOL_NAME, type ToolRegistry } from '../registry'
import { type AgentView, DEFERRED } from '../resolution/agent-view'
import type { ScopeKey, ToolExecution, ToolExecutionInput, ToolExecutionToken } from '../types'
import { notifyStage, Stage } from './notify'
import { abortedBeforeDispatch, failureOf, messageOf } from './results'
import type { PipelineRuntime, ToolCall } from './tool-call'

/** Throw a `TypeError` for a malformed input (a caller bug, not a model failure). */
export function assertInput(input: ToolExecutionInput): void {
  if (typeof input !== 'object' || input === null)
    throw new TypeError('execute() takes a ToolExecutionInput object')
  if (typeof input.callId !== 'string') throw new TypeError('execute(): `callId` must be a string')
  if (typeof input.name !== 'string') throw new TypeError('execute(): `name` must be a string')
  const signal = input.signal as AbortSignal | undefined
  if (typeof signal !== 'object' || signal === null || typeof signal.aborted !== 'boolean') {
    throw new TypeError('execute(): `signal` (an AbortSignal) is required')
  }
  if (input.agent !== undefined && typeof input.agent !== 'string') {
    throw new TypeError('execute(): `agent` must be a scope key string')
  }
  if (input.parent !== undefined && typeof input.parent !== 'symbol') {
    throw new TypeError('execute(): `parent` must be the outer execution token')
  }
  if (input.dialect !== undefined && !PROVIDER_DIALECTS.includes(input.dialect)) {
    throw new TypeError(`execute(): \`dialect\` must be one of ${PROVIDER_DIALECTS.join(', ')}`)
  }
}

/**
 * The `INVALID_ARGS` error for arguments that are not lossless JSON, or past the runtime's
 * `valueLimits`: the offending member is the violation's path, so the message reads like any
 * other argument violation.
 */
function lossyArguments(error: unknown): ToolArgsError {
  if (error instanceof JsonBudgetError && error.message.startsWith(`${error.path}: `)) {
    const detail = error.message.slice(error.path.length + 2)
    const message = `arguments past the runtime's valueLimits.${error.limit}: ${detail}`
    return new ToolArgsError([{ path: error.path, message }], { cause: error })
  }
  if (error instanceof LosslessJsonError && error.message.startsWith(`${error.path}: `)) {
    const detail = error.message.slice(error.path.length + 2)
    return new ToolArgsError([{ path: error.path, message: detail }], { cause: error })
  }
  return new ToolArgsError([{ path: '$', message: messageOf(error) }], { cause: error })
}

/** Read dialect-shaped arguments back to the tool's canonical form (before step 1 sees them). */
function canonicalArgs(
  input: ToolExecutionInput,
  tool: CompiledTool | undefined,
  args: JsonValue,
): JsonValue {
  if (input.dialect === undefined || input.dialect === 'json-schema' || tool === undefined) return args
  return snapshotJson(providerArgsToCanonical(args, tool.schema.parameters, input.dialect))
}

/**
 * The UNKNOWN_TOOL message with suggestions drawn only from what this agent can call here:
 * its visible tools, plus `run_code` at top level when its mode offers it. Hidden and
 * scope-masked names never appear.
 */
function unknown(
  registry: ToolRegistry,
  view: AgentView,
  name: string,
  agent: ScopeKey | undefined,
  nested: boolean,
): string {
  const visible = view.visible.map((tool) => tool.name)
  if (!nested && view.transport !== undefined) visible.push(RESERVED_TOOL_NAME)
  // Read now, not from the view: a tool is retired after its removal rebuilt the views.
  const retired = registry.retiredReason(name, agent)
  const message = unknownToolMessage(name, visible)
  return retired === undefined ? message : `${message} (it was unregistered: ${retired})`
}

/**
 * Resolve the tool as the agent sees it (step 2); a string is the UNKNOWN_TOOL message. One
 * lookup in the agent's view; only a failure does more work, to word its message.
 */
export function resolveTool(
  registry: ToolRegistry,
  name: string,
  agent: ScopeKey | undefined,
  nested: boolean,
): CompiledTool | string {
  const view = registry.view(agent)
  const entry = view.names.get(name)
  if (entry !== undefined && entry !== DEFERRED) {
    if (!nested && view.mode === 'code') {
      return `only \`${RESERVED_TOOL_NAME}\` is callable directly — call \`${name}\` from inside a \`${RESERVED_TOOL_NAME}\` program instead`
    }
    return entry
  }
  if (entry === DEFERRED) {
    return `tool \`${name}\` is deferred: call \`tool_search\` with what you need to load it (and learn its parameters) first`
  }
  if (name === RESERVED_TOOL_NAME) {
    if (nested) return `\`${RESERVED_TOOL_NAME}\` cannot be called from inside another tool call`
    if (view.transport !== undefined) return view.transport
    return view.mode === 'native'
      ? unknown(registry, view, name, agent, nested)
      : missingTransportMessage(view.mode)
  }
  return unknown(registry, view, name, agent, nested)
}

/**
 * Steps 1–4: snapshot and freeze the arguments, mint the token, build the frozen execution,
 * resolve the tool (with the code-only gate), check for a pre-aborted call and validate the
 * arguments. Any failure here is the call's final outcome: no policy and no body run.
 */
export function prepareCall(runtime: PipelineRuntime, input: ToolExecutionInput): ToolCall {
  assertInput(input)
  const token = Symbol('dsh-tools.execution') as ToolExecutionToken
  let args: JsonValue = null
  let lossy: unknown
  try {
    // Model arguments are measured (size, nodes, depth) in this one pass, before validation.
    // Nested calls come from a Code Mode program, whose own budgets measured them on entry.
    args = snapshotJson(input.arguments, input.parent === undefined ? runtime.valueLimits : undefined)
  } catch (error) {
    lossy = error
  }
  const resolved = resolveTool(runtime.registry, input.name, input.agent, input.parent !== undefined)
  const tool = typeof resolved === 'string' ? undefined : resolved
  if (lossy === undefined) args = canonicalArgs(input, tool, args)
  const execution = {
    token,
    callId: input.callId,
    name: input.name,
    arguments: args,
    signal: input.signal,
  } as {
    -readonly [K in keyof ToolExecution]: ToolExecution[K]
  }
  if (input.agent !== undefined) execution.agent = input.agent
  if (input.parent !== undefined) execution.parent = input.parent
  Object.freeze(execution)

  const call: ToolCall = {
    runtime,
    execution,
    callerSignal: input.signal,
    tool,
    finalize: tool?.definition.finalizeContent,
    deferred: [],
    result: undefined,
    decisionContexts: undefined,
    blocked: false,
    replacedAfterBody: false,
    bodyStarted: false,
    dispatched: false,
    onBodySettled: undefined,
    produced: undefined,
    pending: undefined,
    parsed: undefined,
    owner: undefined,
    ended: runtime.lifetimes?.disposed,
    signalled: undefined,
    published: undefined,
    settle: undefined,
  }
  if (call.ended !== undefined) {
    call.result = failureOf(call.ended)
  } else if (lossy !== undefined) {
    call.result = failureOf(lossyArguments(lossy))
  } else if (tool === undefined) {
    call.result = failureOf(new UnknownToolError(resolved as string))
  } else if (input.signal.aborted) {
    call.result = abortedBeforeDispatch()
  } else {
    const violations = tool.checkArgs(args)
    if (violations.length > 0) {
      call.result = failureOf(new ToolArgsError(violations))
    }
  }
  notifyStage(call, Stage.START)
  return call
}

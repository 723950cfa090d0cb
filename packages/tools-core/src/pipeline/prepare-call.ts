import { type JsonValue, snapshotJson, ToolArgsError } from '@dsh/tools-schema'
import { ToolErrorCode } from '../errors'
import { unknownToolMessage } from '../internal/closest-names'
import type { CompiledTool } from '../internal/compiled-tool'
import { RESERVED_TOOL_NAME, type ToolRegistry } from '../registry'
import type { ScopeKey, ToolExecution, ToolExecutionInput, ToolExecutionToken } from '../types'
import { abortedBeforeDispatch, codedFailure, failure, messageOf } from './results'
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
}

/**
 * The UNKNOWN_TOOL message with suggestions drawn only from what this agent can call here:
 * its visible tools, plus `run_code` at top level when its mode offers it. Hidden and
 * scope-masked names never appear.
 */
function unknown(registry: ToolRegistry, name: string, agent: ScopeKey | undefined, nested: boolean): string {
  const visible = registry.visible(agent).map((tool) => tool.name)
  if (!nested && registry.transportFor(agent) !== undefined) visible.push(RESERVED_TOOL_NAME)
  return unknownToolMessage(name, visible)
}

/** Resolve the tool as the agent sees it (step 2); a string is the UNKNOWN_TOOL message. */
export function resolveTool(
  registry: ToolRegistry,
  name: string,
  agent: ScopeKey | undefined,
  nested: boolean,
): CompiledTool | string {
  if (name === RESERVED_TOOL_NAME) {
    if (nested) return `\`${RESERVED_TOOL_NAME}\` cannot be called from inside another tool call`
    return registry.transportFor(agent) ?? unknown(registry, name, agent, nested)
  }
  const tool = registry.resolve(name, agent)
  if (tool === undefined) return unknown(registry, name, agent, nested)
  if (!nested && registry.modeOf(agent) === 'code') {
    return `only \`${RESERVED_TOOL_NAME}\` is callable directly — call \`${name}\` from inside a \`${RESERVED_TOOL_NAME}\` program instead`
  }
  return tool
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
    args = snapshotJson(input.arguments)
  } catch (error) {
    lossy = error
  }
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

  const resolved = resolveTool(
    runtime.registry,
    execution.name,
    execution.agent,
    execution.parent !== undefined,
  )
  const tool = typeof resolved === 'string' ? undefined : resolved
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
    bodyStarted: false,
    dispatched: false,
    pending: undefined,
  }
  if (lossy !== undefined) {
    call.result = codedFailure(
      ToolErrorCode.INVALID_ARGS,
      'ToolArgsError',
      `invalid arguments: ${messageOf(lossy)}`,
    )
  } else if (tool === undefined) {
    call.result = codedFailure(ToolErrorCode.UNKNOWN_TOOL, 'UnknownToolError', resolved as string)
  } else if (input.signal.aborted) {
    call.result = abortedBeforeDispatch()
  } else {
    const violations = tool.checkArgs(args)
    if (violations.length > 0) {
      const error = new ToolArgsError(violations)
      call.result = failure(error.message, { name: error.name, code: error.code })
    }
  }
  return call
}

import { ToolArgsError } from '@dsh/tools-schema'
import { ToolFailedError } from '../errors'
import type { ArgumentsParse } from '../types'
import { failureOf, messageOf } from './results'
import type { ToolCall } from './tool-call'

function settle(call: ToolCall, parse: ArgumentsParse): void {
  if ('violations' in parse) {
    call.result = failureOf(new ToolArgsError(parse.violations))
  } else {
    call.parsed = { value: parse.value }
  }
}

function thrown(call: ToolCall, error: unknown): void {
  call.result = failureOf(
    new ToolFailedError(`argument validation threw: ${messageOf(error)}`, { cause: error }),
  )
}

/**
 * The end of step 4 for a definition with `parseArguments` (a Standard Schema's `validate`):
 * violations → `INVALID_ARGS`; a value is kept for the body. Returns a promise only when the
 * check is asynchronous, so synchronous schemas cost no extra tick. Never throws.
 */
export function parseArguments(call: ToolCall): Promise<void> | undefined {
  const parse = call.tool?.definition.parseArguments
  if (call.result !== undefined || parse === undefined) return undefined
  let outcome: ArgumentsParse | Promise<ArgumentsParse>
  try {
    outcome = parse(call.execution.arguments)
  } catch (error) {
    thrown(call, error)
    return undefined
  }
  if (typeof (outcome as Promise<ArgumentsParse>)?.then !== 'function') {
    settle(call, outcome as ArgumentsParse)
    return undefined
  }
  return Promise.resolve(outcome).then(
    (parse) => settle(call, parse),
    (error) => thrown(call, error),
  )
}

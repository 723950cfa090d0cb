import { JsonBudgetError, type JsonValue, snapshotJson } from '@dsh/tools-schema'
import { InvalidOutputError, ToolAbortedError } from '../errors'
import type { CompiledTool } from '../internal/compiled-tool'
import type { ArgumentsParse, ToolExecution, ToolExecutionResult, ToolSuccess } from '../types'
import { failureOf, freezeContent, messageOf } from './results'
import type { ValueLimits } from './value-limits'

function invalid(message: string): ToolExecutionResult {
  return failureOf(new InvalidOutputError(message))
}

function violated(
  name: string,
  violations: readonly { path: string; message: string }[],
): ToolExecutionResult {
  const listed = violations.slice(0, 10).map((v) => `${v.path}: ${v.message}`)
  return invalid(`tool \`${name}\` returned a value that violates its output schema: ${listed.join('; ')}`)
}

/** What `parseOutput` decided: the value to publish, or an `INVALID_OUTPUT` failure. */
function afterParse(
  tool: CompiledTool,
  execution: ToolExecution,
  parse: ArgumentsParse,
  limits: ValueLimits,
): ToolExecutionResult {
  const name = tool.name
  if (typeof parse !== 'object' || parse === null) {
    return invalid(`the output check of \`${name}\` returned no result`)
  }
  if ('violations' in parse) {
    const violations = Array.isArray(parse.violations) ? parse.violations : []
    return violated(name, violations.length > 0 ? violations : [{ path: '$', message: 'invalid' }])
  }
  let published: JsonValue
  try {
    published = snapshotJson(parse.value, limits)
  } catch (error) {
    return invalid(
      `the output schema of \`${name}\` produced a value that is not lossless JSON: ${messageOf(error)}`,
    )
  }
  return checkedOutput(tool, execution, published)
}

function threw(name: string, error: unknown): ToolExecutionResult {
  return invalid(`the output schema of \`${name}\` threw while validating: ${messageOf(error)}`)
}

/**
 * Await an asynchronous output check. The caller's abort settles it as `ABORTED` at once: a
 * check that never settles must not hold the call (nothing of the body is left running).
 */
function awaitParse(
  tool: CompiledTool,
  execution: ToolExecution,
  pending: PromiseLike<ArgumentsParse>,
  limits: ValueLimits,
): Promise<ToolExecutionResult> {
  const signal = execution.signal
  return new Promise<ToolExecutionResult>((resolve) => {
    const abandon = () =>
      resolve(
        failureOf(
          new ToolAbortedError(`tool call aborted while the output of \`${tool.name}\` was being validated`),
        ),
      )
    if (signal.aborted) return abandon()
    signal.addEventListener('abort', abandon, { once: true })
    Promise.resolve(pending)
      .then(
        (parse) => afterParse(tool, execution, parse, limits),
        (error: unknown) => threw(tool.name, error),
      )
      .then(resolve, (error: unknown) => resolve(threw(tool.name, error)))
      .finally(() => signal.removeEventListener('abort', abandon))
  })
}

/**
 * Normalize a canonical value under a tool's output declaration: snapshot it as lossless JSON
 * within the runtime's `valueLimits` (measured in that one pass, before any validation),
 * run the definition's `parseOutput` when it has one (a Standard Schema's own `validate`, whose
 * output value replaces the body's), validate it against `output.schema`, keep it deep-frozen,
 * render it to content and (for top-level calls) derive `presentationMeta`. Any problem is an
 * `INVALID_OUTPUT` failure. Returns a promise only when `parseOutput` is asynchronous, so every
 * other tool pays for no extra tick; the promise never rejects.
 */
export function normalizeOutput(
  tool: CompiledTool,
  execution: ToolExecution,
  value: unknown,
  limits: ValueLimits,
): ToolExecutionResult | Promise<ToolExecutionResult> {
  const name = tool.name
  let canonical: JsonValue
  try {
    canonical = snapshotJson(value, limits)
  } catch (error) {
    if (error instanceof JsonBudgetError)
      return invalid(`tool \`${name}\` returned a value past the runtime's valueLimits: ${messageOf(error)}`)
    return invalid(`tool \`${name}\` returned a value that is not lossless JSON: ${messageOf(error)}`)
  }
  const parse = tool.definition.parseOutput
  if (parse === undefined) return checkedOutput(tool, execution, canonical)
  let outcome: ArgumentsParse | PromiseLike<ArgumentsParse>
  try {
    outcome = parse.call(tool.definition, canonical)
    if (typeof (outcome as PromiseLike<ArgumentsParse> | null)?.then === 'function') {
      return awaitParse(tool, execution, outcome as PromiseLike<ArgumentsParse>, limits)
    }
    return afterParse(tool, execution, outcome as ArgumentsParse, limits)
  } catch (error) {
    return threw(name, error)
  }
}

/** Validate a published value against `output.schema`, render it and derive its meta. */
function checkedOutput(
  tool: CompiledTool,
  execution: ToolExecution,
  canonical: JsonValue,
): ToolExecutionResult {
  const name = tool.name
  const violations = tool.checkOutput(canonical)
  if (violations.length > 0) return violated(name, violations)
  const output = tool.definition.output
  let content: ReturnType<typeof freezeContent>
  try {
    content = freezeContent(output.render(execution.arguments, canonical))
  } catch (error) {
    return invalid(`output.render of \`${name}\` failed: ${messageOf(error)}`)
  }
  if (typeof content === 'string')
    return invalid(`output.render of \`${name}\` returned invalid content: ${content}`)
  if (execution.parent !== undefined || output.presentationMeta === undefined) {
    return Object.freeze({ isError: false as const, value: canonical, content })
  }
  let meta: JsonValue
  try {
    const derived = output.presentationMeta(execution.arguments, canonical)
    // `undefined` means "no meta for this result"; anything else must be lossless JSON.
    if (derived === undefined) return Object.freeze({ isError: false as const, value: canonical, content })
    meta = snapshotJson(derived)
  } catch (error) {
    return invalid(`output.presentationMeta of \`${name}\` failed: ${messageOf(error)}`)
  }
  const result: ToolSuccess = { isError: false, value: canonical, content, meta }
  return Object.freeze(result)
}

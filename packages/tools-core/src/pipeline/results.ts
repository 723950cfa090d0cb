import { isToolsError, type ToolsError } from '@dsh/tools-schema'
import { AbortedBeforeDispatchError } from '../errors'
import type {
  ContentPart,
  ToolContent,
  ToolExecutionResult,
  ToolFailure,
  ToolFailureInfo,
  ToolPendingApproval,
} from '../types'

/** Build a frozen failure. Content is exactly `[{ type: 'text', text: 'Error: <message>' }]`. */
export function failure(message: string, info: ToolFailureInfo | undefined): ToolFailure {
  const content = Object.freeze([Object.freeze({ type: 'text' as const, text: `Error: ${message}` })])
  const error =
    info === undefined ? Object.freeze({ message }) : Object.freeze({ message, info: Object.freeze(info) })
  return Object.freeze({ isError: true as const, error, content })
}

/**
 * The one converter from an error instance to a failure result: message, class name and code are
 * read from the instance, so a code and its class cannot drift apart. Every failure the pipeline
 * produces is built here.
 *
 * @param error — a `ToolsError` (any dsh-tools error class, e.g. `new DeniedError('no')`).
 * @returns the frozen failure `{ isError: true, error: { message, info: { name, code } },
 *   content: [{ type: 'text', text: 'Error: <message>' }] }`.
 *
 * @example
 * ```ts
 * ctx.on('tools/execute', async (exec, next) =>
 *   quotaLeft(exec.name) ? next() : failureOf(new DeniedError('quota used up')))
 * ```
 */
export function failureOf(error: ToolsError): ToolFailure {
  const result = failure(error.message, { name: error.name, code: error.code })
  // A body that suspended work of its own (`ApprovalPendingError` with `pending`) keeps the ticket.
  const pending = (error as { pending?: ToolPendingApproval }).pending
  return pending === undefined || error.code !== 'APPROVAL_PENDING'
    ? result
    : Object.freeze({ ...result, pending })
}

/** The `ABORTED_BEFORE_DISPATCH` failure: the caller aborted before the body was invoked. */
export function abortedBeforeDispatch(): ToolFailure {
  return failureOf(new AbortedBeforeDispatchError())
}

/** The message of anything thrown. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message
  if (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { message?: unknown }).message === 'string'
  ) {
    return (error as { message: string }).message
  }
  return String(error)
}

/** An error class a phase falls back to for a throw that is not a `ToolsError`. */
export type FallbackError = new (message: string, options?: ErrorOptions) => ToolsError

/**
 * Turn a throw into a failure. A `ToolsError` keeps its code, name and message; anything else
 * becomes a `fallback` instance whose message is `prefix` (naming the phase) plus its message.
 */
export function failureFromThrow(error: unknown, fallback: FallbackError, prefix = ''): ToolFailure {
  if (isToolsError(error)) return failureOf(error)
  return failureOf(new fallback(`${prefix}${messageOf(error)}`, { cause: error }))
}

/** Replace only `content` of a result, keeping everything else. */
export function withContent(result: ToolExecutionResult, content: ToolContent): ToolExecutionResult {
  return Object.freeze({ ...result, content })
}

/**
 * Validate model-facing content and return a frozen copy, or an error message. Parts are
 * `{ type: 'text', text }` or `{ type: 'image', mediaType, data }`.
 */
export function freezeContent(content: unknown): ToolContent | string {
  if (!Array.isArray(content)) return 'content must be an array of parts'
  const out: ContentPart[] = []
  for (let index = 0; index < content.length; index++) {
    const part = content[index] as Record<string, unknown> | null | undefined
    if (typeof part !== 'object' || part === null) return `content[${index}] must be an object`
    if (part.type === 'text') {
      if (typeof part.text !== 'string') return `content[${index}].text must be a string`
      out.push(Object.freeze({ type: 'text', text: part.text }))
    } else if (part.type === 'image') {
      if (typeof part.mediaType !== 'string' || typeof part.data !== 'string') {
        return `content[${index}] image parts need string \`mediaType\` and \`data\``
      }
      out.push(Object.freeze({ type: 'image', mediaType: part.mediaType, data: part.data }))
    } else {
      return `content[${index}].type must be 'text' or 'image'`
    }
  }
  return Object.freeze(out)
}

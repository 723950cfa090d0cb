/**
 * The message a program's call to a name that is not a binding rejects with: the name, close
 * binding names (core's `closestNames`, the same "did you mean" a native call gets, drawn only
 * from this run's bindings), and how to load a deferred tool when `tool_search` is offered.
 */
import { closestNames, TOOL_SEARCH_TOOL_NAME } from '@dsh/tools-core'

/** `unknown tool: <name> is not a binding of this run`, plus a suggestion and the deferred-tool hint when they apply. */
export function unknownBindingMessage(name: string, bindings: ReadonlySet<string>): string {
  const close = closestNames(name, bindings).map((candidate) => `\`${candidate}\``)
  const last = close.pop()
  const suggestion =
    last === undefined
      ? ''
      : ` — did you mean ${close.length === 0 ? last : `${close.join(', ')} or ${last}`}?`
  // Deferred tools are not bindings until tool_search loads them (from the next run on).
  const deferred = bindings.has(TOOL_SEARCH_TOOL_NAME)
    ? `; a deferred tool must be loaded with \`tools.${TOOL_SEARCH_TOOL_NAME}(...)\` first (it is a binding from the next run)`
    : ''
  return `unknown tool: ${name} is not a binding of this run${suggestion}${deferred}`
}

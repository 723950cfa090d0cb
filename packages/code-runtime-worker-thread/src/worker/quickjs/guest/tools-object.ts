/**
 * The `tools` global programs see, on both engines: a frozen, prototype-less object with one
 * binding per tool name, behind a Proxy whose `get` answers any other string name with a
 * function that rejects with a `ToolCallError` naming it and suggesting close names, instead of
 * a nameless `TypeError: not a function` (`tools.get_wether(...)`). Such a call never leaves the
 * engine. Everything else stays as it was: only real names are own keys (`'x' in tools`,
 * `Object.keys(tools)`), and the names JavaScript itself probes (`then`, `toJSON`, `toString`, …)
 * read `undefined`, so `await tools` or `JSON.stringify(tools)` stay what they were.
 */
import { descriptor, intrinsics as I } from './intrinsics'
import type { ToolCallErrorClass } from './tool-call-error'
import { unknownBindingMessage } from './unknown-binding'

/** Names the language and its built-ins read implicitly; never treated as a mistyped tool. */
const IMPLICIT_NAMES = I.create(null) as Record<string, true>
for (const name of [
  'then',
  'catch',
  'finally',
  'toJSON',
  'toString',
  'toLocaleString',
  'valueOf',
  'constructor',
]) {
  IMPLICIT_NAMES[name] = true
}
I.freeze(IMPLICIT_NAMES)

/**
 * Build the `tools` object from the parsed binding names; `callTool` starts a call and returns
 * the program's promise.
 */
export function createToolsObject(
  parsedNames: readonly unknown[],
  callTool: (name: string, args: unknown) => Promise<unknown>,
  ToolCallError: ToolCallErrorClass,
): object {
  const names: string[] = []
  const tools: Record<string, unknown> = I.create(null)
  for (let i = 0; i < parsedNames.length; i++) {
    const name = I.String(parsedNames[i])
    names[i] = name
    const binding = { [name]: (args: unknown) => callTool(name, args) }[name]
    I.defineProperty(tools, name, descriptor(binding, false, true))
  }
  I.freeze(tools)
  const refuse = (name: string): unknown =>
    ({
      [name]: (_args?: unknown) =>
        I.apply(I.promiseReject, I.Promise, [new ToolCallError(name, unknownBindingMessage(name, names))]),
    })[name]
  const handler = I.create(null) as ProxyHandler<Record<string, unknown>>
  handler.get = (target, key) => {
    if (typeof key !== 'string') return undefined
    if (I.hasOwn(target, key)) return target[key]
    return key === '__proto__' || IMPLICIT_NAMES[key] === true ? undefined : refuse(key)
  }
  return new I.Proxy(tools, I.freeze(handler))
}

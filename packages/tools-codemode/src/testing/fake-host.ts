/**
 * A `CodeRunHost` without cordis or tools: `call` dispatches to plain functions, and every call
 * and streamed line is recorded, so a runtime's own tests drive it directly.
 */
import type { JsonValue } from '@dsh/tools-core'
import type { CodeRunHost, CodeRunRequest } from '../code-runtime'

/** A tool body of the fake host: a plain (async) function of the arguments. */
export type FakeTool = (args: unknown) => Promise<JsonValue> | JsonValue

/** A failure the fake host raises, shaped like Code Mode's `ToolCallError` (`toolName` + `message`). */
export class FakeToolCallError extends Error {
  /** The binding that failed. */
  readonly toolName: string

  constructor(toolName: string, message: string) {
    super(message)
    this.toolName = toolName
  }
}

/** A fake host, with what it recorded. */
export interface FakeHost {
  readonly host: CodeRunHost
  /** Every call, in the order the runtime made them. */
  readonly calls: Array<{ readonly name: string; readonly args: unknown }>
  /** Every line handed to `onLog`, in order. */
  readonly streamed: string[]
}

/** A fake host whose `call` dispatches to `tools` (an unknown name fails as `FakeToolCallError`). */
export function fakeHost(
  tools: Readonly<Record<string, FakeTool>>,
  signal: AbortSignal = new AbortController().signal,
): FakeHost {
  const calls: Array<{ name: string; args: unknown }> = []
  const streamed: string[] = []
  const host: CodeRunHost = {
    signal,
    async call(name, args) {
      calls.push({ name, args })
      const tool = Object.hasOwn(tools, name) ? tools[name] : undefined
      if (!tool) throw new FakeToolCallError(name, `unknown tool ${name}`)
      return tool(args)
    },
    onLog(line) {
      streamed.push(line)
    },
  }
  return { host, calls, streamed }
}

/** A run request for `code` allowed to call `toolNames` (sorted, as Code Mode passes them). */
export function runRequest(code: string, toolNames: readonly string[] = []): CodeRunRequest {
  return { code, description: 'test program', toolNames: [...toolNames].sort() }
}

/**
 * The Code Mode provider that stands in while no code runtime is loaded. Without it, forgetting
 * the runtime plugin made core say "load @dsh/tools-codemode" (which is loaded) and `run_code`
 * an unknown tool; with it, assembly and every `run_code` call name the missing runtime.
 */
import { type CodeModeProvider, type ObjectJsonSchema, RESERVED_TOOL_NAME } from '@dsh/tools-core'
import { CodeRuntimeMissingError } from './errors'
import { RUN_CODE_OUTPUT_SCHEMA } from './transport'

/**
 * A provider whose sections throw `CodeRuntimeMissingError` (so a `code`/`both` assembly fails
 * loudly and advertises nothing) and whose transport fails every call with it.
 */
export function missingRuntimeProvider(): CodeModeProvider {
  return {
    transport: {
      name: RESERVED_TOOL_NAME,
      description: 'Unavailable: Code Mode is loaded but no code runtime is.',
      // Any arguments: the call fails for the missing runtime, not for its arguments.
      parameters: { type: 'object', properties: {} },
      output: { schema: RUN_CODE_OUTPUT_SCHEMA as unknown as ObjectJsonSchema, render: () => [] },
      execute: () => {
        throw new CodeRuntimeMissingError()
      },
      isConcurrencySafe: () => false,
    },
    sections: () => {
      throw new CodeRuntimeMissingError()
    },
  }
}

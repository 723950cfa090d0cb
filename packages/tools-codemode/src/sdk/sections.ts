/**
 * The prompt sections Code Mode contributes to every non-native assembly.
 */
import type { PromptSection, ToolSchema } from '@dsh/tools-core'
import { UnsupportedCodeLanguageError } from '../errors'
import { renderPythonSdk } from './python'
import { renderTypeScriptSdk } from './typescript'

/** Id and order of the generated SDK section. */
export const SDK_SECTION = { id: 'tools:sdk', order: 150 } as const

/** Id and order of the code-only rule; it sorts before per-tool guidance (150 and up). */
export const CODE_ONLY_SECTION = { id: 'tools:code-only', order: 140 } as const

/** The rule stated in mode `code` (in `both` the section renders empty). */
export const CODE_ONLY_RULE_TEXT =
  'Only `run_code` is callable directly. Every other tool in this prompt is a binding of the ' +
  '`run_code` SDK: call it from inside a `run_code` program (`await tools.name(args)`). ' +
  'Calling any other tool directly fails.'

/** An SDK renderer: the full `tools:sdk` text for the visible tools. */
export type SdkRenderer = (tools: readonly ToolSchema[]) => string

const RENDERERS: ReadonlyMap<string, SdkRenderer> = new Map([
  ['typescript', renderTypeScriptSdk],
  ['python', renderPythonSdk],
])

/** The SDK renderer of a runtime language; throws `UnsupportedCodeLanguageError` when there is none. */
export function sdkRendererFor(language: string): SdkRenderer {
  const renderer = RENDERERS.get(language)
  if (renderer === undefined) throw new UnsupportedCodeLanguageError(language)
  return renderer
}

/** The input core passes to a Code Mode provider at each assembly. */
export interface CodeModeSectionsInput {
  readonly mode: 'code' | 'both'
  readonly tools: readonly ToolSchema[]
}

/**
 * Both Code Mode sections for one assembly: `tools:code-only` (empty in `both`) and
 * `tools:sdk` in the runtime's language.
 */
export function codeModeSections(language: string, input: CodeModeSectionsInput): PromptSection[] {
  const sdk = sdkRendererFor(language)(input.tools)
  return [
    {
      id: CODE_ONLY_SECTION.id,
      order: CODE_ONLY_SECTION.order,
      text: input.mode === 'code' ? CODE_ONLY_RULE_TEXT : '',
    },
    { id: SDK_SECTION.id, order: SDK_SECTION.order, text: sdk },
  ]
}

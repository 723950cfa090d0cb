import type { Provider } from '../types'
import { anthropic } from '../wire/anthropic'
import { gemini } from '../wire/gemini'
import { openAIChat } from '../wire/openai-chat'
import { openAIResponses } from '../wire/openai-responses'
import type { WireFormat } from './wire-format'

/** Every provider's wire format, by name. */
const WIRE_FORMATS: { readonly [P in Provider]: WireFormat<P> } = Object.freeze({
  'openai-chat': openAIChat,
  'openai-responses': openAIResponses,
  anthropic,
  gemini,
})

/** The providers the helpers speak, in the order the docs list them. */
export const PROVIDERS: readonly Provider[] = Object.freeze(Object.keys(WIRE_FORMATS) as Provider[])

/** The wire format of `provider`; a `TypeError` naming the choices for anything else. */
export function wireFormat<P extends Provider>(provider: P): WireFormat<P> {
  if (typeof provider !== 'string' || !Object.hasOwn(WIRE_FORMATS, provider)) {
    throw new TypeError(`unknown provider \`${String(provider)}\` (expected ${PROVIDERS.join(', ')})`)
  }
  return WIRE_FORMATS[provider] as WireFormat<P>
}

/** The `strict` a call asks for, or the provider's default; anything but a boolean is a `TypeError`. */
export function strictOf(format: WireFormat<Provider>, strict: unknown): boolean {
  if (strict === undefined) return format.defaultStrict
  if (typeof strict !== 'boolean') throw new TypeError('`strict` must be a boolean')
  return strict
}

import type { NativeToolSpec, ProviderDialect } from '@dsh/tools-core'
import type { CallOutcome, Provider, ProviderCall, ProviderWire } from '../types'

/** One provider's wire format: what each of the three helpers does for it. */
export interface WireFormat<P extends Provider> {
  /** `strict` when the caller does not say. */
  readonly defaultStrict: boolean
  /** The schema dialect the model sees the tools in. */
  dialect(strict: boolean): ProviderDialect
  /** The request's `tools` value from definitions already in `dialect(strict)`. */
  tools(specs: readonly NativeToolSpec[], strict: boolean): ProviderWire[P]['tools']
  /** The calls of a response, in the order the model made them. */
  calls(response: ProviderWire[P]['response'], dialect: ProviderDialect): ProviderCall[]
  /** The messages that answer `outcomes` (none pending), in order. */
  results(outcomes: readonly CallOutcome[]): ProviderWire[P]['message'][]
}

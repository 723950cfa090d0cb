/**
 * Public presentation types of @dsh/tools-core: the provider-neutral, card-tagged render
 * intents a tool returns from `presentCall` / `presentResult`. Types only.
 */
import type { JsonValue } from '@dsh/tools-schema'

/** A file location a card may link to. `line` is 1-based. */
export interface ToolLocation {
  readonly path: string
  readonly line?: number
}

/** One file's change in a diff card, as a unified patch. */
export interface FileDiff {
  readonly path: string
  readonly patch: string
  readonly added: number
  readonly removed: number
}

/** How a UI renders a call, chosen by the tool. `undefined` from a presenter means generic. */
export type ToolCallView =
  | {
      readonly card: 'generic'
      readonly title: string
      readonly kind?: string
      readonly rawInput?: JsonValue
      readonly content?: string
      readonly locations?: readonly ToolLocation[]
    }
  | {
      readonly card: 'terminal'
      readonly title: string
      readonly description?: string
      readonly cwd?: string
    }
  | {
      readonly card: 'diff'
      readonly title: string
      readonly diffs: readonly FileDiff[]
      readonly locations?: readonly ToolLocation[]
    }

/** One numbered line of a read card. */
export interface NumberedLine {
  readonly number: number
  readonly text: string
}

/** Matches of one file in a grep-style search card. */
export interface SearchFileMatches {
  readonly path: string
  readonly matches: readonly NumberedLine[]
}

/** How a UI renders a result, chosen by the tool. */
export type ToolResultView =
  | { readonly card: 'generic'; readonly title?: string; readonly content?: string }
  | {
      readonly card: 'terminal'
      readonly title?: string
      readonly output?: string
      readonly exitCode?: number | null
      readonly signal?: string | null
    }
  | { readonly card: 'diff'; readonly title?: string; readonly diffs: readonly FileDiff[] }
  | {
      readonly card: 'search'
      readonly shape: 'matches'
      readonly title?: string
      readonly truncated: boolean
      readonly total: number
      readonly files: readonly SearchFileMatches[]
    }
  | {
      readonly card: 'search'
      readonly shape: 'paths'
      readonly title?: string
      readonly truncated: boolean
      readonly total: number
      readonly paths: readonly string[]
    }
  | {
      readonly card: 'read'
      readonly title?: string
      readonly path: string
      readonly offset: number
      readonly lines: readonly NumberedLine[]
      readonly totalLines: number
      readonly lang?: string
      readonly content?: string
    }
  | {
      readonly card: 'web'
      readonly kind: 'search'
      readonly title?: string
      readonly results: readonly { readonly title: string; readonly url: string; readonly snippet?: string }[]
    }
  | {
      readonly card: 'web'
      readonly kind: 'fetch'
      readonly title?: string
      readonly url: string
      readonly summary?: string
    }

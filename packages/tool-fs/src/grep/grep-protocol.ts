/** One file's text for the grep worker (its buffer is transferred, not copied). */
export interface GrepFileInput {
  readonly bytes: Uint8Array
}

/** Host → worker: search a batch of files with one pattern. */
export interface GrepRequest {
  readonly pattern: string
  readonly caseInsensitive: boolean
  /** Keep at most this many matching lines per file (the rest are only counted). */
  readonly keep: number
  readonly maxLineLength: number
  readonly files: readonly GrepFileInput[]
}

/** A matching line as returned to the model. */
export interface GrepLine {
  number: number
  text: string
}

/** How one file of a batch fared. */
export interface GrepFileOutcome {
  readonly matches: GrepLine[]
  readonly count: number
}

/** Worker → host: the outcomes in request order, or the reason the pattern does not compile. */
export type GrepResponse =
  | { readonly kind: 'searched'; readonly files: GrepFileOutcome[] }
  | { readonly kind: 'invalid-pattern'; readonly message: string }

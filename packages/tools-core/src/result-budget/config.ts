/** The `resultBudget` option of `ToolRuntime`, declared in the config DSL (the runtime's config spreads it in). */

/** The `resultBudget` option of `ToolRuntime`: caps on model-facing content, in UTF-8 bytes. */
export interface ResultBudgetConfig {
  /** The cap for every tool's content (text as UTF-8 bytes, images as base64 length). */
  readonly maxContentBytes: number
  /** Per-tool caps that replace `maxContentBytes` for the named tools. */
  readonly perTool?: { readonly [name: string]: number }
  /**
   * How many bytes of full results the in-memory handle store keeps (LRU); default 32 MiB.
   * With a `ToolStateStore` loaded it is the largest single text kept there.
   */
  readonly storeBytes?: number
  /**
   * How long (ms) a full text kept in a `ToolStateStore` (`ctx.toolStore`) stays readable
   * through its handle, from any process sharing the store; default 24 hours. Unused without a store.
   */
  readonly ttlMs?: number
}

/** The validated budget with defaults filled in. */
export interface ResolvedResultBudget {
  readonly maxContentBytes: number
  readonly perTool: ReadonlyMap<string, number>
  readonly storeBytes: number
  readonly ttlMs: number
}

/** Default `storeBytes`: 32 MiB of full results. */
export const DEFAULT_STORE_BYTES = 32 * 1024 * 1024

/** Default `ttlMs`: a full text kept in a `ToolStateStore` stays readable for 24 hours. */
export const DEFAULT_RESULT_TTL_MS = 24 * 60 * 60 * 1000

/** The smallest budget accepted: room for a marker and a little of the text around it. */
export const MIN_CONTENT_BYTES = 256

const bytes = { type: 'integer', minimum: MIN_CONTENT_BYTES, maximum: Number.MAX_SAFE_INTEGER } as const
const positive = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const

/** The spec of `resultBudget` (no default: leaving it out turns the budget off). */
export const resultBudgetSpec = {
  type: 'object',
  additionalProperties: false,
  description:
    'cap model-facing content of top-level results, keeping the full text behind a `read_result` handle; off when absent',
  properties: {
    maxContentBytes: {
      ...bytes,
      required: true,
      description: "every tool's cap (text as UTF-8 bytes, images as base64 length)",
    },
    perTool: {
      type: 'record',
      values: bytes,
      description: 'caps that replace `maxContentBytes` for the named tools',
    },
    storeBytes: {
      ...positive,
      default: DEFAULT_STORE_BYTES,
      description:
        'bytes of full results the in-memory handle store keeps (LRU); with a `ToolStateStore`, the largest single text kept there',
    },
    ttlMs: {
      ...positive,
      default: DEFAULT_RESULT_TTL_MS,
      description: 'how long a text kept in a `ToolStateStore` stays readable through its handle (24 hours)',
    },
  },
} as const

/** The budget of a validated config: `perTool` as a map, read once per result. */
export function resolvedResultBudget(config: {
  readonly maxContentBytes: number
  readonly perTool?: { readonly [name: string]: number }
  readonly storeBytes: number
  readonly ttlMs: number
}): ResolvedResultBudget {
  const { maxContentBytes, perTool = {}, storeBytes, ttlMs } = config
  return { maxContentBytes, perTool: new Map(Object.entries(perTool)), storeBytes, ttlMs }
}

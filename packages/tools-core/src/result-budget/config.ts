import type { ConfigIssue } from '../config-schema'

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

function isIntegerAtLeast(value: unknown, min: number): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= min
}

/** Validate `resultBudget`; issues carry paths under `resultBudget`. */
export function validateResultBudget(value: unknown): ResolvedResultBudget | ConfigIssue[] {
  const at = (...path: PropertyKey[]) => ['resultBudget', ...path]
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return [{ message: 'resultBudget must be an object', path: at() }]
  }
  const { maxContentBytes, perTool, storeBytes, ttlMs } = value as Record<string, unknown>
  const issues: ConfigIssue[] = []
  if (!isIntegerAtLeast(maxContentBytes, MIN_CONTENT_BYTES)) {
    issues.push({
      message: `maxContentBytes must be an integer ≥ ${MIN_CONTENT_BYTES}`,
      path: at('maxContentBytes'),
    })
  }
  if (storeBytes !== undefined && !isIntegerAtLeast(storeBytes, 1)) {
    issues.push({ message: 'storeBytes must be a positive integer', path: at('storeBytes') })
  }
  if (ttlMs !== undefined && !isIntegerAtLeast(ttlMs, 1)) {
    issues.push({ message: 'ttlMs must be a positive integer of milliseconds', path: at('ttlMs') })
  }
  const perToolMap = new Map<string, number>()
  if (perTool !== undefined) {
    if (typeof perTool !== 'object' || perTool === null || Array.isArray(perTool)) {
      issues.push({ message: 'perTool must be an object of tool name → bytes', path: at('perTool') })
    } else {
      for (const [name, bytes] of Object.entries(perTool)) {
        if (isIntegerAtLeast(bytes, MIN_CONTENT_BYTES)) perToolMap.set(name, bytes)
        else
          issues.push({
            message: `perTool.${name} must be an integer ≥ ${MIN_CONTENT_BYTES}`,
            path: at('perTool', name),
          })
      }
    }
  }
  if (issues.length > 0) return issues
  return {
    maxContentBytes: maxContentBytes as number,
    perTool: perToolMap,
    storeBytes: (storeBytes as number | undefined) ?? DEFAULT_STORE_BYTES,
    ttlMs: (ttlMs as number | undefined) ?? DEFAULT_RESULT_TTL_MS,
  }
}

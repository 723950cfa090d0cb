/**
 * The value limits a run message carries (`nodes`, `depth`), read by either engine's worker. A
 * field that is missing or not a positive integer keeps the runtime kit's default: the host
 * checks every value again whatever the worker does.
 */
import { DEFAULT_JSON_SHAPE_LIMITS, type ValueLimits } from '@dsh/tools-codemode/runtime-kit'

const positive = (value: unknown, fallback: number): number =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : fallback

/** The {@link ValueLimits} of a run message. */
export function readValueLimits(message: {
  readonly nodes?: unknown
  readonly depth?: unknown
}): ValueLimits {
  return {
    maxValueNodes: positive(message.nodes, DEFAULT_JSON_SHAPE_LIMITS.maxNodes),
    maxValueDepth: positive(message.depth, DEFAULT_JSON_SHAPE_LIMITS.maxDepth),
  }
}

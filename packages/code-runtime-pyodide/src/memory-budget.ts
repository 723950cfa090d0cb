/**
 * How one run's `maxMemoryMb` is split across the parts that hold its memory. A run's worker is
 * a thread of the host process, so every part of it grows the host: the worker's V8 heap, the
 * interpreter's WebAssembly memory, the in-memory filesystem's file bytes (JavaScript arrays
 * outside both), and the output the host keeps (log lines and the completion payload). Capping
 * each at `maxMemoryMb` on its own let one run grow the host by several times the cap; here the
 * parts share it, so together they stay within it.
 */
import type { ResolvedPyodideRuntimeConfig } from './types'

const MIB = 1024 * 1024

/** One run's share of `maxMemoryMb`, part by part. */
export interface MemoryBudget {
  /** V8 old generation of the worker, in MiB: `maxOldGenerationSizeMb`, at most a quarter of `maxMemoryMb` less the young generation. */
  readonly oldGenerationMb: number
  /** V8 young generation of the worker, in MiB: an eighth of the heap share. */
  readonly youngGenerationMb: number
  /** Log lines plus the completion payload, in UTF-8 bytes: `maxOutputBytes`, at most an eighth of `maxMemoryMb`. */
  readonly outputBytes: number
  /**
   * The interpreter's WebAssembly memory and the in-memory files' bytes together, in bytes: what
   * is left. The booted interpreter itself takes about 30 MiB of it.
   */
  readonly interpreterBytes: number
}

/**
 * Split `maxMemoryMb`: a quarter to the worker's JavaScript heap (an eighth of that to its young
 * generation), an eighth to output, and the rest to the interpreter's memory and files, which
 * share one count (a program may spend it on either).
 */
export function memoryBudget(
  config: Pick<ResolvedPyodideRuntimeConfig, 'maxMemoryMb' | 'maxOldGenerationSizeMb' | 'maxOutputBytes'>,
): MemoryBudget {
  const heapMb = Math.floor(config.maxMemoryMb / 4)
  const youngGenerationMb = Math.max(1, Math.floor(heapMb / 8))
  const oldGenerationMb = Math.min(config.maxOldGenerationSizeMb, heapMb - youngGenerationMb)
  const outputBytes = Math.min(config.maxOutputBytes, Math.floor((config.maxMemoryMb * MIB) / 8))
  const outputShareBytes = Math.floor((config.maxMemoryMb * MIB) / 8)
  return {
    oldGenerationMb,
    youngGenerationMb,
    outputBytes,
    interpreterBytes: config.maxMemoryMb * MIB - heapMb * MIB - outputShareBytes,
  }
}

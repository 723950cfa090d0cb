import { FS_TOOL_ERROR_CODES, FsToolError } from '../errors'
import type { FsToolContext } from '../fs-tool-context'
import { readGrepFile } from '../grep-files'
import { walkFiles } from '../walk-files'
import type { GrepFileInput, GrepResponse } from './grep-protocol'
import { assertLinearTimeRegex } from './regex-dialect'

/** Files read concurrently and sent to the worker in one message. */
const BATCH_FILES = 32

/** What {@link grepSearch} searches. */
export interface GrepSearchInput {
  readonly pattern: string
  readonly caseInsensitive: boolean
  /** A confined real directory or file. */
  readonly base: string
  readonly isDirectory: boolean
  /** File filter on the path relative to `base`. */
  readonly include: (relative: string) => boolean
}

/** The tallies of a search; `files` keeps at most `maxGrepMatches` lines overall. */
export interface GrepSearchOutcome {
  files: { path: string; matches: { number: number; text: string }[] }[]
  total: number
  filesSearched: number
  filesSkipped: number
  stoppedAt?: 'maxWalkEntries' | 'maxGrepTotalBytes'
}

/**
 * Search files line by line with a linear-time (RE2) pattern. This thread walks and reads the
 * files; a leased worker thread compiles the pattern and matches, under `grepTimeoutMs`, so no
 * pattern or input can block the host. Batches are pipelined: the next one is read while the
 * worker matches the previous. Work is bounded by `maxWalkEntries` and `maxGrepTotalBytes`.
 * @throws {FsToolError} `INVALID_PATTERN`, `SEARCH_BUDGET_EXCEEDED`, `SEARCH_FAILED`; the abort reason.
 */
export async function grepSearch(
  context: FsToolContext,
  input: GrepSearchInput,
  signal: AbortSignal,
): Promise<GrepSearchOutcome> {
  assertLinearTimeRegex(input.pattern)
  const { config, guard } = context
  const outcome: GrepSearchOutcome = { files: [], total: 0, filesSearched: 0, filesSkipped: 0 }
  const lease = await context.grepWorkers.lease(signal, config.grepTimeoutMs)
  let shown = 0
  let bytes = 0
  const send = (files: GrepFileInput[]) =>
    lease.search({
      pattern: input.pattern,
      caseInsensitive: input.caseInsensitive,
      keep: config.maxGrepMatches,
      maxLineLength: config.maxLineLength,
      files,
    })
  const collect = (response: GrepResponse, displays: string[]) => {
    if (response.kind === 'invalid-pattern')
      throw new FsToolError(
        FS_TOOL_ERROR_CODES.INVALID_PATTERN,
        `invalid regular expression /${input.pattern}/: ${response.message}`,
      )
    for (const [index, file] of response.files.entries()) {
      outcome.filesSearched++
      outcome.total += file.count
      const kept = file.matches.slice(0, config.maxGrepMatches - shown)
      if (kept.length === 0) continue
      shown += kept.length
      outcome.files.push({ path: displays[index]!, matches: kept })
    }
  }
  // The batch the worker is matching, settled into "apply its outcome" (which rethrows a
  // failure) so a failure while the next batch is read is never an unhandled rejection.
  let inFlight: Promise<() => void> = Promise.resolve(() => {})
  const submit = (files: GrepFileInput[], displays: string[]) => {
    inFlight = send(files).then(
      (response) => () => collect(response, displays),
      (error: unknown) => () => {
        throw error
      },
    )
  }
  const dispatch = async (batch: { display: string; real: string }[]) => {
    const read = await Promise.all(
      batch.map((file) => readGrepFile(file.real, config.maxGrepFileBytes, guard)),
    )
    const files: GrepFileInput[] = []
    const displays: string[] = []
    for (const [index, result] of read.entries()) {
      if (result.status === 'skipped' || outcome.stoppedAt === 'maxGrepTotalBytes') {
        outcome.filesSkipped++
        continue
      }
      bytes += result.bytes.length
      if (bytes > config.maxGrepTotalBytes) {
        outcome.stoppedAt = 'maxGrepTotalBytes'
        outcome.filesSkipped++
        continue
      }
      files.push({ bytes: result.bytes })
      displays.push(batch[index]!.display)
    }
    ;(await inFlight)()
    submit(files, displays)
  }
  try {
    // Compile first: a bad pattern fails before any walking.
    submit([], [])
    ;(await inFlight)()
    if (!input.isDirectory) {
      await dispatch([{ display: guard.display(input.base), real: input.base }])
    } else {
      let batch: { display: string; real: string }[] = []
      const walk = walkFiles(input.base, {
        guard,
        ignoreDirectories: new Set(config.ignoreDirectories),
        signal,
        maxEntries: config.maxWalkEntries,
        onLimit: () => {
          outcome.stoppedAt ??= 'maxWalkEntries'
        },
      })
      for await (const file of walk) {
        if (!input.include(file.relative)) continue
        batch.push({ display: guard.display(file.absolute), real: file.real })
        if (batch.length >= BATCH_FILES) {
          await dispatch(batch)
          batch = []
          if (outcome.stoppedAt === 'maxGrepTotalBytes') break
        }
      }
      if (batch.length > 0) await dispatch(batch)
    }
    ;(await inFlight)()
    return outcome
  } finally {
    lease.end()
  }
}

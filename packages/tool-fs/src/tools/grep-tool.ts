import { defineTool, type ToolDefinition } from '@dsh/tools-core'
import { FS_TOOL_ERROR_CODES, FsToolError } from '../errors'
import type { FsToolContext } from '../fs-tool-context'
import { grepFile } from '../grep-files'
import { metaRecord } from '../internal/meta'
import { walkFiles } from '../walk-files'
import { compileGlob } from './glob-tool'
import { assertRelativePattern, resolveSearchBase } from './search-base'

const fileMatchesSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    path: { type: 'string', required: true },
    matches: {
      type: 'array',
      required: true,
      items: {
        type: 'object',
        additionalProperties: false,
        properties: { number: { type: 'integer', required: true }, text: { type: 'string', required: true } },
      },
    },
  },
} as const

/** Output schema of `grep`: see {@link GrepValue}. */
export const grepValueSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    pattern: { type: 'string', required: true },
    path: { type: 'string', required: true, description: 'The directory or file searched.' },
    files: {
      type: 'array',
      items: fileMatchesSchema,
      required: true,
      description: 'Matching lines grouped by file.',
    },
    total: {
      type: 'integer',
      required: true,
      description: 'All matching lines, including those not returned.',
    },
    truncated: {
      type: 'boolean',
      required: true,
      description: 'True when files hold fewer lines than total.',
    },
    filesSearched: { type: 'integer', required: true },
    filesSkipped: { type: 'integer', required: true, description: 'Binary, oversized or unreadable files.' },
  },
} as const

/** The canonical value of `grep`. */
export interface GrepValue {
  pattern: string
  path: string
  files: { path: string; matches: { number: number; text: string }[] }[]
  total: number
  truncated: boolean
  filesSearched: number
  filesSkipped: number
}

/** Render a grep value ripgrep-style (`path` heading, then `line:text`), noting truncation. */
export function renderGrep(value: GrepValue): string {
  if (value.total === 0)
    return `No matches for /${value.pattern}/ in ${value.path} (${value.filesSearched} files searched)`
  const blocks = value.files.map((file) =>
    [file.path, ...file.matches.map((m) => `${m.number}:${m.text}`)].join('\n'),
  )
  const shown = value.files.reduce((sum, file) => sum + file.matches.length, 0)
  const note = value.truncated
    ? `\n\n(showing ${shown} of ${value.total} matching lines; narrow the pattern, path or glob)`
    : ''
  return blocks.join('\n\n') + note
}

const CONCURRENT_FILES = 32

/**
 * The `grep` tool: search file contents with a JavaScript regular expression, line by line,
 * under a directory (optionally filtered by a glob) or in one file. Results are grouped by
 * file in walk order and capped; binary and oversized files are skipped. Concurrency-safe.
 */
export function createGrepTool(context: FsToolContext): ToolDefinition {
  const { config, guard } = context
  const ignoreDirectories = new Set(config.ignoreDirectories)
  return defineTool({
    name: 'grep',
    description:
      'Search file contents with a regular expression (JavaScript syntax), line by line. ' +
      `Returns up to ${config.maxGrepMatches} matching lines grouped by file. Skips binary files and ${config.ignoreDirectories.join(', ')}.`,
    parameters: {
      pattern: { type: 'string', required: true, description: 'Regular expression to search for.' },
      path: { type: 'string', description: 'File or directory to search (default: the workspace root).' },
      glob: {
        type: 'string',
        description:
          'Only search files matching this glob (e.g. "*.ts", "src/**/*.js"); without "/" it matches file names.',
      },
      case_insensitive: { type: 'boolean', description: 'Match case-insensitively (default false).' },
    },
    output: {
      schema: grepValueSchema,
      render: (_args, value) => [{ type: 'text', text: renderGrep(value) }],
      presentationMeta: (_args, value) => ({
        files: value.files,
        total: value.total,
        truncated: value.truncated,
      }),
    },
    isConcurrencySafe: () => true,
    async execute(args, exec): Promise<GrepValue> {
      const regex = compileRegex(args.pattern, args.case_insensitive === true)
      if (args.glob !== undefined) assertRelativePattern(args.glob, 'glob')
      const include =
        args.glob === undefined
          ? () => true
          : compileGlob(args.glob, { dot: true, basename: !args.glob.includes('/') })
      const base = await resolveSearchBase(context, args.path, true)
      const value: GrepValue = {
        pattern: args.pattern,
        path: guard.display(base.resolved.real),
        files: [],
        total: 0,
        truncated: false,
        filesSearched: 0,
        filesSkipped: 0,
      }
      let shown = 0
      const search = async (batch: { display: string; real: string }[]) => {
        const results = await Promise.all(
          batch.map((file) =>
            grepFile(file.real, {
              regex,
              keep: config.maxGrepMatches,
              maxFileBytes: config.maxGrepFileBytes,
              maxLineLength: config.maxLineLength,
            }),
          ),
        )
        for (const [index, result] of results.entries()) {
          if (result.status === 'skipped') {
            value.filesSkipped++
            continue
          }
          value.filesSearched++
          value.total += result.count
          const kept = result.matches.slice(0, config.maxGrepMatches - shown)
          if (kept.length === 0) continue
          shown += kept.length
          value.files.push({ path: batch[index]!.display, matches: kept })
        }
      }
      if (!base.isDirectory) {
        await search([{ display: value.path, real: base.resolved.real }])
      } else {
        let batch: { display: string; real: string }[] = []
        for await (const file of walkFiles(base.resolved.real, {
          guard,
          ignoreDirectories,
          signal: exec.signal,
        })) {
          if (!include(file.relative)) continue
          batch.push({ display: guard.display(file.absolute), real: file.real })
          if (batch.length >= CONCURRENT_FILES) {
            await search(batch)
            batch = []
          }
        }
        await search(batch)
      }
      value.truncated = shown < value.total
      return value
    },
    presentCall: (args) => ({
      card: 'generic',
      title: `Grep /${args.pattern}/${args.path === undefined ? '' : ` in ${args.path}`}`,
      kind: 'search',
    }),
    presentResult(args, record, meta) {
      const value = metaRecord(meta)
      if (record.isError || value === undefined || !Array.isArray(value.files)) return undefined
      return {
        card: 'search',
        shape: 'matches',
        title: `/${args.pattern}/`,
        truncated: value.truncated === true,
        total: typeof value.total === 'number' ? value.total : 0,
        files: value.files as unknown as GrepValue['files'],
      }
    },
  })
}

function compileRegex(pattern: string, caseInsensitive: boolean): RegExp {
  try {
    return new RegExp(pattern, caseInsensitive ? 'i' : '')
  } catch (error) {
    throw new FsToolError(
      FS_TOOL_ERROR_CODES.INVALID_PATTERN,
      `invalid regular expression /${pattern}/: ${(error as Error).message}`,
      {
        cause: error,
      },
    )
  }
}

import { defineTool, type ToolDefinition } from '@dsh/tools-core'
import type { FsToolContext } from '../fs-tool-context'
import { compileGlob } from '../glob/compile-glob'
import { grepSearch } from '../grep/grep-search'
import { metaRecord } from '../internal/meta'
import { assertRelativePattern, resolveSearchBase, stoppedNote } from './search-base'

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
    filesSkipped: {
      type: 'integer',
      required: true,
      description: 'Binary, oversized or unreadable files, and files left out after stoppedAt.',
    },
    stoppedAt: {
      type: 'string',
      description:
        'Present when the search stopped early at a bound: "maxWalkEntries" or "maxGrepTotalBytes" (the config key).',
    },
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
  /** The config bound the search stopped at, when it stopped early (results are partial). */
  stoppedAt?: string
}

/** Render a grep value ripgrep-style (`path` heading, then `line:text`), noting truncation. */
export function renderGrep(value: GrepValue): string {
  if (value.total === 0)
    return `No matches for /${value.pattern}/ in ${value.path} (${value.filesSearched} files searched)${stoppedNote(value.stoppedAt)}`
  const blocks = value.files.map((file) =>
    [file.path, ...file.matches.map((m) => `${m.number}:${m.text}`)].join('\n'),
  )
  const shown = value.files.reduce((sum, file) => sum + file.matches.length, 0)
  const note = value.truncated
    ? `\n\n(showing ${shown} of ${value.total} matching lines; narrow the pattern, path or glob)`
    : ''
  return blocks.join('\n\n') + note + stoppedNote(value.stoppedAt)
}

/**
 * The `grep` tool: search file contents with an RE2 regular expression (linear time; matched on
 * a worker thread under `grepTimeoutMs`), line by line, under a directory (optionally filtered
 * by a glob) or in one file. Results are grouped by file in walk order and capped; binary and
 * oversized files are skipped. Concurrency-safe.
 */
export function createGrepTool(context: FsToolContext): ToolDefinition {
  const { config, guard } = context
  return defineTool({
    name: 'grep',
    description:
      'Search file contents with a regular expression (RE2 syntax: like JavaScript without lookaround or backreferences), line by line. ' +
      `Returns up to ${config.maxGrepMatches} matching lines grouped by file. Skips binary files and ${config.ignoreDirectories.join(', ')}.`,
    parameters: {
      pattern: {
        type: 'string',
        required: true,
        description: 'Regular expression to search for (RE2 syntax; no lookaround or backreferences).',
      },
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
      if (args.glob !== undefined) assertRelativePattern(args.glob, 'glob')
      const include =
        args.glob === undefined ? () => true : compileGlob(args.glob, { basename: !args.glob.includes('/') })
      const base = await resolveSearchBase(context, args.path, true)
      const outcome = await grepSearch(
        context,
        {
          pattern: args.pattern,
          caseInsensitive: args.case_insensitive === true,
          base: base.resolved.real,
          isDirectory: base.isDirectory,
          include,
        },
        exec.signal,
      )
      const shown = outcome.files.reduce((sum, file) => sum + file.matches.length, 0)
      return {
        pattern: args.pattern,
        path: guard.display(base.resolved.real),
        files: outcome.files,
        total: outcome.total,
        truncated: shown < outcome.total,
        filesSearched: outcome.filesSearched,
        filesSkipped: outcome.filesSkipped,
        ...(outcome.stoppedAt === undefined ? {} : { stoppedAt: outcome.stoppedAt }),
      }
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

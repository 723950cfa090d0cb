import { defineTool, type ToolDefinition } from '@dsh/tools-core'
import type { FsToolContext } from '../fs-tool-context'
import { compileGlob } from '../glob/compile-glob'
import { metaRecord } from '../internal/meta'
import { walkFiles } from '../walk-files'
import { assertRelativePattern, resolveSearchBase, stoppedNote } from './search-base'

/** Output schema of `glob`: see {@link GlobValue}. */
export const globValueSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    pattern: { type: 'string', required: true },
    path: { type: 'string', required: true, description: 'The directory searched.' },
    paths: {
      type: 'array',
      items: { type: 'string' },
      required: true,
      description: 'Matching files, sorted.',
    },
    total: {
      type: 'integer',
      required: true,
      description: 'All matching files, including those not returned.',
    },
    truncated: { type: 'boolean', required: true, description: 'True when paths holds fewer than total.' },
    stoppedAt: {
      type: 'string',
      description:
        'Present ("maxWalkEntries") when the walk stopped early at that bound: results are partial.',
    },
  },
} as const

/** The canonical value of `glob`. */
export interface GlobValue {
  pattern: string
  path: string
  paths: string[]
  total: number
  truncated: boolean
  /** The config bound the walk stopped at, when it stopped early (results are partial). */
  stoppedAt?: string
}

/** Render a glob value: one path per line, with an explicit note when truncated. */
export function renderGlob(value: GlobValue): string {
  if (value.total === 0)
    return `No files match ${value.pattern} in ${value.path}${stoppedNote(value.stoppedAt)}`
  const note = value.truncated
    ? `\n\n(showing ${value.paths.length} of ${value.total} matching files; use a more specific pattern or path)`
    : ''
  return value.paths.join('\n') + note + stoppedNote(value.stoppedAt)
}

/**
 * The `glob` tool: list files under a directory whose relative path matches a glob (bounded,
 * matched in linear time, dotfiles included), sorted, capped; the walk visits at most
 * `maxWalkEntries` entries and honours the call's signal. Concurrency-safe.
 */
export function createGlobTool(context: FsToolContext): ToolDefinition {
  const { config, guard } = context
  const ignoreDirectories = new Set(config.ignoreDirectories)
  return defineTool({
    name: 'glob',
    description:
      'Find files by glob pattern (e.g. "**/*.ts", "src/**/test-*.js"), matched against paths relative to path. ' +
      `Returns up to ${config.maxGlobResults} paths, sorted. Skips ${config.ignoreDirectories.join(', ')}.`,
    parameters: {
      pattern: { type: 'string', required: true, description: 'Glob pattern, relative to path.' },
      path: { type: 'string', description: 'Directory to search (default: the workspace root).' },
    },
    output: {
      schema: globValueSchema,
      render: (_args, value) => [{ type: 'text', text: renderGlob(value) }],
      presentationMeta: (_args, value) => ({
        paths: value.paths,
        total: value.total,
        truncated: value.truncated,
      }),
    },
    isConcurrencySafe: () => true,
    async execute(args, exec): Promise<GlobValue> {
      assertRelativePattern(args.pattern, 'pattern')
      const matches = compileGlob(args.pattern)
      const { resolved } = await resolveSearchBase(context, args.path, false)
      const paths: string[] = []
      let total = 0
      let stopped = false
      const walk = walkFiles(resolved.real, {
        guard,
        ignoreDirectories,
        signal: exec.signal,
        maxEntries: config.maxWalkEntries,
        onLimit: () => {
          stopped = true
        },
      })
      for await (const file of walk) {
        if (!matches(file.relative)) continue
        total++
        if (paths.length < config.maxGlobResults) paths.push(guard.display(file.absolute))
      }
      return {
        pattern: args.pattern,
        path: guard.display(resolved.real),
        paths,
        total,
        truncated: total > paths.length,
        ...(stopped ? { stoppedAt: 'maxWalkEntries' as const } : {}),
      }
    },
    presentCall: (args) => ({
      card: 'generic',
      title: `Glob ${args.pattern}${args.path === undefined ? '' : ` in ${args.path}`}`,
      kind: 'search',
    }),
    presentResult(args, record, meta) {
      const value = metaRecord(meta)
      if (record.isError || value === undefined || !Array.isArray(value.paths)) return undefined
      return {
        card: 'search',
        shape: 'paths',
        title: args.pattern,
        truncated: value.truncated === true,
        total: typeof value.total === 'number' ? value.total : value.paths.length,
        paths: value.paths.filter((item): item is string => typeof item === 'string'),
      }
    },
  })
}

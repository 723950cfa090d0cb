import { defineTool, ToolArgsError, type ToolDefinition } from '@dsh/tools-core'
import type { FsToolContext } from '../fs-tool-context'
import { metaRecord } from '../internal/meta'
import { languageOf } from '../language'
import { readWindow } from '../read-window'

const lineSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    number: { type: 'integer', required: true, description: '1-based line number in the file.' },
    text: { type: 'string', required: true, description: 'Line text without its line ending.' },
  },
} as const

/** Output schema of `read`: see {@link ReadValue}. */
export const readValueSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    path: {
      type: 'string',
      required: true,
      description: 'The file (relative to the first root when inside it).',
    },
    offset: { type: 'integer', required: true, description: 'The 1-based first line requested.' },
    lines: { type: 'array', items: lineSchema, required: true },
    totalLines: { type: 'integer', required: true, description: 'Lines in the whole file.' },
    truncated: { type: 'boolean', required: true, description: 'True when lines follow the window.' },
    stoppedAt: {
      type: 'string',
      description:
        'Present ("maxReadScanBytes") when reading stopped at that bound: totalLines then counts only the lines seen.',
    },
  },
} as const

/** The canonical value of `read`: a window of numbered lines. */
export interface ReadValue {
  path: string
  offset: number
  lines: { number: number; text: string }[]
  totalLines: number
  truncated: boolean
  /** `'maxReadScanBytes'` when the file was read only up to that bound (`totalLines` is a lower bound). */
  stoppedAt?: string
}

/** Render a read value `cat -n` style, with a note on how to continue when truncated. */
export function renderRead(value: ReadValue): string {
  const partial = value.stoppedAt !== undefined
  if (value.totalLines === 0 && !partial) return `(${value.path} is empty)`
  if (value.lines.length === 0) {
    return partial
      ? `(offset ${value.offset} lies beyond the part of ${value.path} read (${value.totalLines} lines; reading stops at the ${value.stoppedAt} bound); use grep or bash for this file)`
      : `(offset ${value.offset} is past the end of ${value.path}, which has ${value.totalLines} lines)`
  }
  const body = value.lines.map((line) => `${String(line.number).padStart(6)}\t${line.text}`).join('\n')
  if (!value.truncated) return body
  const last = value.lines[value.lines.length - 1]!.number
  const total = partial
    ? `at least ${value.totalLines} (reading stopped at the ${value.stoppedAt} bound)`
    : String(value.totalLines)
  return `${body}\n\n(showing lines ${value.offset}-${last} of ${total}; call read with offset=${last + 1} to continue)`
}

/**
 * The `read` tool: a line-numbered window of a text file, streamed (never loads the whole
 * file), capped by lines, line length and bytes; binary files are refused. Concurrency-safe.
 */
export function createReadTool(fs: FsToolContext): ToolDefinition {
  const { config, guard, tracker } = fs
  return defineTool({
    name: 'read',
    description:
      `Read a text file as numbered lines (like cat -n). Returns at most ${config.maxReadLines} lines per call; ` +
      'use offset/limit to page through long files. Binary files are refused.',
    parameters: {
      file_path: {
        type: 'string',
        required: true,
        description: 'File to read: absolute, or relative to the workspace root.',
      },
      offset: { type: 'integer', description: '1-based line to start at (default 1).' },
      limit: {
        type: 'integer',
        description: `Maximum lines to return (default and maximum ${config.maxReadLines}).`,
      },
    },
    output: {
      schema: readValueSchema,
      render: (_args, value) => [{ type: 'text', text: renderRead(value) }],
      presentationMeta: (_args, value) => value,
    },
    isConcurrencySafe: () => true,
    async execute(args, exec): Promise<ReadValue> {
      const offset = args.offset ?? 1
      const limit = Math.min(args.limit ?? config.maxReadLines, config.maxReadLines)
      if (offset < 1) throw new ToolArgsError([{ path: '$.offset', message: 'must be at least 1' }])
      if (limit < 1) throw new ToolArgsError([{ path: '$.limit', message: 'must be at least 1' }])
      const resolved = await guard.resolve(args.file_path)
      const { handle, stat } = await guard.openFile(resolved)
      try {
        const window = await readWindow(handle, {
          offset,
          limit,
          maxLineLength: config.maxLineLength,
          maxBytes: config.maxReadBytes,
          maxScanBytes: config.maxReadScanBytes,
          label: args.file_path,
          signal: exec.signal,
        })
        tracker.record(exec.agent, resolved.real, stat)
        const { scanStopped, ...lines } = window
        return {
          path: guard.display(resolved.real),
          offset,
          ...lines,
          ...(scanStopped ? { stoppedAt: 'maxReadScanBytes' } : {}),
        }
      } finally {
        await handle.close()
      }
    },
    presentCall: (args) => ({
      card: 'generic',
      title: `Read ${args.file_path}`,
      kind: 'read',
      locations: [{ path: args.file_path, line: args.offset ?? 1 }],
    }),
    presentResult(_args, record, meta) {
      const value = metaRecord(meta) as ReadValue | undefined
      if (record.isError || value === undefined || !Array.isArray(value.lines)) return undefined
      const lang = languageOf(value.path)
      return {
        card: 'read',
        title: value.path,
        path: value.path,
        offset: value.offset,
        lines: value.lines,
        totalLines: value.totalLines,
        ...(lang === undefined ? {} : { lang }),
        content: value.lines.map((line) => line.text).join('\n'),
      }
    },
  })
}

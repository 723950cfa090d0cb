import type { Stats } from 'node:fs'
import { defineTool, type ToolDefinition } from '@dsh/tools-core'
import { assertReadBeforeWrite, commitWrite } from '../commit-write'
import { fileDiff } from '../file-diff'
import type { FsToolContext } from '../fs-tool-context'
import { readOldText } from '../internal/read-old-text'
import { fileChangeSchema, presentChange } from './file-change'

/** Output schema of `write`: see {@link WriteValue}. */
export const writeValueSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    path: { type: 'string', required: true },
    created: { type: 'boolean', required: true, description: 'True when the file did not exist before.' },
    bytes: { type: 'integer', required: true, description: 'UTF-8 bytes written.' },
    diff: { ...fileChangeSchema, required: true },
  },
} as const

/** The canonical value of `write`. */
export interface WriteValue {
  path: string
  created: boolean
  bytes: number
  diff: { patch: string; added: number; removed: number; omitted: boolean }
}

/** Render a write value as a one-line summary (the model already knows the content). */
export function renderWrite(value: WriteValue): string {
  if (value.created) return `Created ${value.path} (${value.diff.added} lines, ${value.bytes} bytes)`
  return `Wrote ${value.path} (${value.bytes} bytes; +${value.diff.added} -${value.diff.removed} lines)`
}

/**
 * The `write` tool: create or overwrite a whole file atomically (temp file + fsync + rename in
 * the same directory), creating parent directories and keeping the replaced file's mode.
 * Exclusive.
 */
export function createWriteTool(context: FsToolContext): ToolDefinition {
  const { config, guard } = context
  return defineTool({
    name: 'write',
    description:
      'Create a file, or replace its entire content. Parent directories are created. ' +
      'Prefer edit for changes to part of an existing file.',
    parameters: {
      file_path: {
        type: 'string',
        required: true,
        description: 'File to write: absolute, or relative to the workspace root.',
      },
      content: { type: 'string', required: true, description: 'The complete new content of the file.' },
    },
    output: {
      schema: writeValueSchema,
      render: (_args, value) => [{ type: 'text', text: renderWrite(value) }],
      presentationMeta: (_args, value) => ({ path: value.path, created: value.created, ...value.diff }),
    },
    isConcurrencySafe: () => false,
    async execute(args, exec): Promise<WriteValue> {
      const resolved = await guard.resolve(args.file_path)
      let before: string | { lines: number } = ''
      let previous: Stats | undefined
      if (resolved.exists) {
        const { handle, stat } = await guard.openFile(resolved)
        try {
          assertReadBeforeWrite(context, exec.agent, resolved, stat)
          before = await readOldText(
            handle,
            stat,
            { maxBytes: config.maxDiffBytes, maxScanBytes: config.maxReadScanBytes },
            exec.signal,
          )
          previous = stat
        } finally {
          await handle.close()
        }
      }
      exec.signal.throwIfAborted()
      const options = previous === undefined ? {} : { mode: previous.mode & 0o7777, expected: previous }
      await commitWrite(context, exec.agent, resolved, args.content, options)
      const path = guard.display(resolved.real)
      return {
        path,
        created: previous === undefined,
        bytes: Buffer.byteLength(args.content),
        diff: fileDiff(path, before, args.content, config.maxDiffBytes),
      }
    },
    presentCall: (args) => ({
      card: 'generic',
      title: `Write ${args.file_path}`,
      kind: 'edit',
      locations: [{ path: args.file_path }],
    }),
    presentResult: (_args, record, meta) =>
      presentChange(record, meta, (created) => (created ? 'Created' : 'Wrote')),
  })
}

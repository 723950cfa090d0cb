import { defineTool, type ToolDefinition } from '@dsh/tools-core'
import { assertReadBeforeWrite, commitWrite } from '../commit-write'
import { applyEdit } from '../edit-apply'
import { FS_TOOL_ERROR_CODES, FsToolError } from '../errors'
import { fileDiff } from '../file-diff'
import type { FsToolContext } from '../fs-tool-context'
import { looksBinary } from '../internal/looks-binary'
import { readBounded } from '../internal/read-bounded'
import { fileChangeSchema, presentChange } from './file-change'

/** Output schema of `edit`: see {@link EditValue}. */
export const editValueSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    path: { type: 'string', required: true },
    replacements: { type: 'integer', required: true, description: 'Occurrences replaced.' },
    diff: { ...fileChangeSchema, required: true },
  },
} as const

/** The canonical value of `edit`. */
export interface EditValue {
  path: string
  replacements: number
  diff: { patch: string; added: number; removed: number; omitted: boolean }
}

/** Render an edit value: a summary line and the unified patch, so the model can check it. */
export function renderEdit(value: EditValue): string {
  const count = value.replacements === 1 ? '1 occurrence' : `${value.replacements} occurrences`
  const summary = `Edited ${value.path}: replaced ${count} (+${value.diff.added} -${value.diff.removed} lines)`
  return value.diff.omitted ? summary : `${summary}\n\n${value.diff.patch}`
}

/**
 * The `edit` tool: replace a literal string in a file (unique unless `replace_all`), keeping
 * the file's BOM, line endings and mode, written atomically. Exclusive.
 */
export function createEditTool(context: FsToolContext): ToolDefinition {
  const { config, guard } = context
  return defineTool({
    name: 'edit',
    description:
      'Replace an exact string in a file. old_string must match the file literally (including indentation) ' +
      'and be unique unless replace_all is true. Line endings and a BOM are preserved.',
    parameters: {
      file_path: {
        type: 'string',
        required: true,
        description: 'File to edit: absolute, or relative to the workspace root.',
      },
      old_string: { type: 'string', required: true, description: 'The exact text to replace.' },
      new_string: { type: 'string', required: true, description: 'The replacement text.' },
      replace_all: { type: 'boolean', description: 'Replace every occurrence (default false).' },
    },
    output: {
      schema: editValueSchema,
      render: (_args, value) => [{ type: 'text', text: renderEdit(value) }],
      presentationMeta: (_args, value) => ({ path: value.path, ...value.diff }),
    },
    isConcurrencySafe: () => false,
    async execute(args, exec): Promise<EditValue> {
      const resolved = await guard.resolve(args.file_path)
      if (!resolved.exists) {
        throw new FsToolError(
          FS_TOOL_ERROR_CODES.NOT_FOUND,
          `file not found: ${args.file_path} (use write to create a new file)`,
        )
      }
      const { handle, stat } = await guard.openFile(resolved)
      let before: string
      try {
        assertReadBeforeWrite(context, exec.agent, resolved, stat)
        // The size is checked before and while reading: a sparse or growing file is never loaded.
        const buffer =
          stat.size > config.maxEditBytes ? undefined : await readBounded(handle, config.maxEditBytes)
        if (buffer === undefined) {
          throw new FsToolError(
            FS_TOOL_ERROR_CODES.FILE_TOO_LARGE,
            `${args.file_path} is larger than ${config.maxEditBytes} bytes (maxEditBytes); edit loads files whole, so use write or bash for it`,
          )
        }
        if (looksBinary(buffer)) {
          throw new FsToolError(
            FS_TOOL_ERROR_CODES.BINARY_FILE,
            `${args.file_path} appears to be a binary file; refusing to edit it`,
          )
        }
        before = buffer.toString('utf8')
      } finally {
        await handle.close()
      }
      const applied = applyEdit(before, {
        oldString: args.old_string,
        newString: args.new_string,
        replaceAll: args.replace_all === true,
        label: args.file_path,
        maxLength: config.maxEditBytes,
      })
      exec.signal.throwIfAborted()
      await commitWrite(context, exec.agent, resolved, applied.content, {
        mode: stat.mode & 0o7777,
        expected: stat,
      })
      const path = guard.display(resolved.real)
      return {
        path,
        replacements: applied.replacements,
        diff: fileDiff(path, before, applied.content, config.maxDiffBytes),
      }
    },
    presentCall(args) {
      const proposed = fileDiff(args.file_path, args.old_string, args.new_string, config.maxDiffBytes)
      return {
        card: 'diff',
        title: `Edit ${args.file_path}`,
        diffs: [
          { path: args.file_path, patch: proposed.patch, added: proposed.added, removed: proposed.removed },
        ],
        locations: [{ path: args.file_path }],
      }
    },
    presentResult: (_args, record, meta) => presentChange(record, meta, () => 'Edited'),
  })
}

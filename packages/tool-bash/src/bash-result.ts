/**
 * The canonical value of a `bash` call and its output schema. The value is execution-local;
 * only the rendered content and the presentation meta are persisted.
 */

/** The canonical value of one `bash` call (a type alias, so it is assignable to `JsonValue`). */
export type BashResult = {
  /** Captured stdout, possibly with a truncation marker (`[… N bytes truncated …]`). */
  readonly stdout: string
  /** Captured stderr, possibly with a truncation marker. */
  readonly stderr: string
  /** Exit code, or `null` when the shell was ended by a signal. */
  readonly exitCode: number | null
  /** The signal that ended the shell (e.g. `SIGTERM`), or `null`. */
  readonly signal: string | null
  /** Whether stdout or stderr lost bytes to the caps. */
  readonly truncated: boolean
  /** The call's own `timeoutMs` expired and the process group was killed. */
  readonly timedOut: boolean
}

/** The output schema (schema DSL) of {@link BashResult}. */
export const BASH_RESULT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    stdout: {
      type: 'string',
      required: true,
      description: 'Captured stdout (byte-capped, with a truncation marker).',
    },
    stderr: {
      type: 'string',
      required: true,
      description: 'Captured stderr (byte-capped, with a truncation marker).',
    },
    exitCode: {
      oneOf: [{ type: 'integer' }, { type: 'null' }],
      required: true,
      description: 'Exit code, or null when a signal ended the shell.',
    },
    signal: {
      oneOf: [{ type: 'string' }, { type: 'null' }],
      required: true,
      description: 'The signal that ended the shell, or null.',
    },
    truncated: { type: 'boolean', required: true, description: 'Whether output was truncated.' },
    timedOut: { type: 'boolean', required: true, description: "Whether the call's timeoutMs expired." },
  },
} as const

/** The parameter schema (schema DSL) of the `bash` tool. */
export const BASH_PARAMETERS = {
  command: { type: 'string', required: true, description: 'The script to run with `bash -c`.' },
  description: {
    type: 'string',
    required: true,
    description: 'What the command does, in 5–10 words; shown to the user.',
  },
  timeoutMs: {
    type: 'integer',
    description:
      'Budget in milliseconds (clamped to the configured maximum). The process group is killed when it expires.',
  },
  workdir: {
    type: 'string',
    description: 'Working directory; a relative path resolves against the configured default.',
  },
} as const

/** The arguments of one `bash` call. */
export interface BashArgs {
  readonly command: string
  readonly description: string
  readonly timeoutMs?: number
  readonly workdir?: string
}

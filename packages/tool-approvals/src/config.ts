import { type ConfigProblem, type ConfigSchema, type ConfigSchemaResult, configSchema } from '@dsh/tools-core'

/** The plugin's config (SPEC §13.2). */
export interface ToolApprovalsConfig {
  /**
   * The HMAC-SHA256 key every decision is signed with: at least 32 bytes (a string counts its
   * UTF-8 bytes). Every process that decides or resumes needs the same key.
   */
  readonly signingKey: string | Uint8Array
  /** How long (ms) an approval may wait for a decision, and then for its resume. Default 24 h. */
  readonly ttlMs?: number
  /** How long (ms) a resuming process holds its claim before it counts as dead. Default 30 s. */
  readonly leaseMs?: number
}

/** The config with its defaults filled in and the key as bytes. */
export interface ResolvedApprovalsConfig {
  readonly signingKey: Buffer
  readonly ttlMs: number
  readonly leaseMs: number
}

/** The default `ttlMs`: a day. */
export const DEFAULT_TTL_MS = 24 * 60 * 60 * 1000
/** The default `leaseMs`: 30 seconds. */
export const DEFAULT_LEASE_MS = 30_000
const MIN_KEY_BYTES = 32
const MAX_MS = 2 ** 31 - 1

const isKey = (value: unknown): value is string | Uint8Array =>
  typeof value === 'string' || value instanceof Uint8Array

/** A string counts its UTF-8 bytes. */
const keyBytes = (key: string | Uint8Array): Buffer =>
  typeof key === 'string' ? Buffer.from(key, 'utf8') : Buffer.from(key)

const duration = { type: 'integer', minimum: 1, maximum: MAX_MS } as const

/** The key's length is the one rule the spec cannot say (a string's UTF-8 bytes, or the bytes). */
function checkKey({ signingKey }: { readonly signingKey: string | Uint8Array }): ConfigProblem[] {
  const length = typeof signingKey === 'string' ? Buffer.byteLength(signingKey, 'utf8') : signingKey.length
  if (length >= MIN_KEY_BYTES) return []
  return [
    {
      path: ['signingKey'],
      message: `must be at least ${MIN_KEY_BYTES} bytes (got ${length}); use e.g. 32 random bytes, base64-encoded`,
    },
  ]
}

/** Standard-schema validator of {@link ToolApprovalsConfig} (cordis validates plugin config with it). */
export const Config: ConfigSchema<ToolApprovalsConfig, ResolvedApprovalsConfig> = configSchema(
  {
    type: 'object',
    additionalProperties: false,
    properties: {
      signingKey: {
        type: 'host',
        description:
          'the HMAC-SHA256 key of every decision: a string (its UTF-8 bytes) or a Uint8Array, of at least 32 bytes',
        is: isKey,
        required: true,
      },
      ttlMs: {
        ...duration,
        default: DEFAULT_TTL_MS,
        description:
          "how long an approval may wait for its decision and its resume (`APPROVAL_EXPIRED` after); a finished ticket's result is kept as long",
      },
      leaseMs: {
        ...duration,
        default: DEFAULT_LEASE_MS,
        description:
          'how long a resuming process holds its claim without renewing it before it counts as dead (renewed every `leaseMs / 3` while a body runs)',
      },
    },
  },
  {
    check: checkKey,
    // The key as bytes, copied: a caller reusing its buffer cannot change the key in force.
    resolve: ({ signingKey, ttlMs, leaseMs }) =>
      Object.freeze({ signingKey: keyBytes(signingKey), ttlMs, leaseMs }),
  },
)

/** Validate a config: the resolved config, or every problem found. Never throws. */
export function validateConfig(value: unknown): ConfigSchemaResult<ResolvedApprovalsConfig> {
  return Config['~standard'].validate(value)
}

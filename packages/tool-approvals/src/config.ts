import { type ConfigIssue, type ConfigValidationResult, standardConfigSchema } from '@dsh/tools-core'

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

function duration(value: unknown, key: string, fallback: number, issues: ConfigIssue[]): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_MS) {
    issues.push({
      message: `${key} must be an integer number of milliseconds from 1 to ${MAX_MS}`,
      path: [key],
    })
  }
  return value as number
}

function keyBytes(value: unknown, issues: ConfigIssue[]): Buffer {
  const bytes =
    typeof value === 'string'
      ? Buffer.from(value, 'utf8')
      : value instanceof Uint8Array
        ? Buffer.from(value)
        : undefined
  if (bytes === undefined) {
    issues.push({
      message: 'signingKey is required: a string or bytes of at least 32 bytes',
      path: ['signingKey'],
    })
    return Buffer.alloc(0)
  }
  if (bytes.length < MIN_KEY_BYTES) {
    issues.push({
      message: `signingKey must be at least ${MIN_KEY_BYTES} bytes (got ${bytes.length}); use e.g. 32 random bytes, base64-encoded`,
      path: ['signingKey'],
    })
  }
  return bytes
}

const KEYS = new Set(['signingKey', 'ttlMs', 'leaseMs'])

/** Validate a config: the resolved config, or every problem found. */
export function validateConfig(value: unknown): ConfigValidationResult<ResolvedApprovalsConfig> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { issues: [{ message: 'config must be an object with a signingKey' }] }
  const issues: ConfigIssue[] = []
  for (const key of Object.keys(value))
    if (!KEYS.has(key)) issues.push({ message: `unknown config key \`${key}\``, path: [key] })
  const config = value as Record<string, unknown>
  const signingKey = keyBytes(config['signingKey'], issues)
  const ttlMs = duration(config['ttlMs'], 'ttlMs', DEFAULT_TTL_MS, issues)
  const leaseMs = duration(config['leaseMs'], 'leaseMs', DEFAULT_LEASE_MS, issues)
  return issues.length > 0 ? { issues } : { value: Object.freeze({ signingKey, ttlMs, leaseMs }) }
}

/** Standard-schema validator of {@link ToolApprovalsConfig} (cordis validates plugin config with it). */
export const Config = standardConfigSchema<ToolApprovalsConfig, ResolvedApprovalsConfig>(validateConfig)

import { type StandardConfigSchema, standardConfigSchema } from '@dsh/tools-core'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { DEFAULT_SERVER_MESSAGE_LIMITS, type McpMessageLimits, resolveLimits } from './message-limits'

/** Spawn the server as a child process and speak MCP over its stdin/stdout. */
export interface McpStdioTransportConfig {
  readonly command: string
  readonly args?: readonly string[]
  /** The child's whole environment on top of the SDK's safe defaults (PATH, HOME, …). */
  readonly env?: Readonly<Record<string, string>>
  readonly cwd?: string
}

/** Reach the server over Streamable HTTP. */
export interface McpHttpTransportConfig {
  readonly url: string
  readonly headers?: Readonly<Record<string, string>>
}

/**
 * Bring your own SDK transport (in-memory, WebSocket, …): `create()` runs on every (re)connect
 * and must return a fresh, unstarted transport.
 */
export interface McpCustomTransportConfig {
  create(): Transport | Promise<Transport>
}

/** Which of the three transport kinds a config names: told apart by their required key. */
export type McpTransportConfig = McpStdioTransportConfig | McpHttpTransportConfig | McpCustomTransportConfig

/** The client plugin's config as a user writes it. */
export interface McpClientConfig {
  /** The server's name: in tool names (default prefix `<name>__`), warnings and failures. */
  readonly name: string
  readonly transport: McpTransportConfig
  /** Prepended to every server tool name (default `<name>__`); sanitized to `^[A-Za-z0-9_-]{1,64}$`. */
  readonly prefix?: string
  /** Believe the server's `readOnlyHint` / `destructiveHint` (default `false`). */
  readonly trustAnnotations?: boolean
  /**
   * Deadline for each answer of the server, ms (default: the SDK's 60 s). A total bound:
   * progress notifications restart the wait for the next one but never extend it past this.
   */
  readonly timeoutMs?: number
  /**
   * Bounds on each message the server sends, checked before anything reads it (default
   * 10 MiB of strings, 200 000 nodes, depth 256); an answer past one fails its call.
   */
  readonly limits?: Partial<McpMessageLimits>
}

/** The validated config, defaults filled in. */
export interface ResolvedMcpClientConfig {
  readonly name: string
  readonly transport: McpTransportConfig
  readonly prefix: string
  readonly trustAnnotations: boolean
  readonly timeoutMs: number | undefined
  readonly limits: McpMessageLimits
}

type Issue = { message: string; path?: PropertyKey[] }

const TOP_KEYS = new Set(['name', 'transport', 'prefix', 'trustAnnotations', 'timeoutMs', 'limits'])
const KIND_KEYS = { stdio: ['command', 'args', 'env', 'cwd'], http: ['url', 'headers'], custom: ['create'] }

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function stringMap(value: unknown, path: PropertyKey[], issues: Issue[]): void {
  if (value === undefined) return
  if (!isRecord(value) || Object.values(value).some((entry) => typeof entry !== 'string')) {
    issues.push({ message: 'must be an object of string values', path })
  }
}

function checkTransport(transport: unknown, issues: Issue[]): void {
  if (!isRecord(transport)) {
    issues.push({
      message: 'transport must be { command, … }, { url, … } or { create }',
      path: ['transport'],
    })
    return
  }
  const kinds = (['stdio', 'http', 'custom'] as const).filter((kind) =>
    Object.hasOwn(transport, KIND_KEYS[kind][0]!),
  )
  if (kinds.length !== 1) {
    issues.push({
      message: 'transport needs exactly one of `command`, `url` or `create`',
      path: ['transport'],
    })
    return
  }
  const kind = kinds[0]!
  for (const key of Object.keys(transport)) {
    if (!KIND_KEYS[kind].includes(key))
      issues.push({ message: `unknown key for a ${kind} transport`, path: ['transport', key] })
  }
  if (kind === 'stdio') {
    if (typeof transport.command !== 'string' || transport.command === '') {
      issues.push({ message: 'command must be a non-empty string', path: ['transport', 'command'] })
    }
    const args = transport.args
    if (args !== undefined && (!Array.isArray(args) || args.some((arg) => typeof arg !== 'string'))) {
      issues.push({ message: 'args must be an array of strings', path: ['transport', 'args'] })
    }
    stringMap(transport.env, ['transport', 'env'], issues)
    if (transport.cwd !== undefined && typeof transport.cwd !== 'string') {
      issues.push({ message: 'cwd must be a string', path: ['transport', 'cwd'] })
    }
  } else if (kind === 'http') {
    const url =
      typeof transport.url === 'string' && URL.canParse(transport.url) ? new URL(transport.url) : undefined
    if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      issues.push({ message: 'url must be an http(s) URL', path: ['transport', 'url'] })
    }
    stringMap(transport.headers, ['transport', 'headers'], issues)
  } else if (typeof transport.create !== 'function') {
    issues.push({
      message: 'create must be a function returning an SDK Transport',
      path: ['transport', 'create'],
    })
  }
}

/** Validate a config and fill in defaults (the plugin's `Config` and `apply` both use it). */
export function resolveMcpClientConfig(
  value: unknown,
): { value: ResolvedMcpClientConfig } | { issues: Issue[] } {
  if (!isRecord(value))
    return { issues: [{ message: 'tools-mcp config must be an object { name, transport, … }' }] }
  const issues: Issue[] = []
  for (const key of Object.keys(value))
    if (!TOP_KEYS.has(key)) issues.push({ message: 'unknown key', path: [key] })
  const { name, prefix, trustAnnotations = false, timeoutMs } = value
  if (typeof name !== 'string' || name === '' || name.length > 64) {
    issues.push({ message: 'name must be a string of 1 to 64 characters', path: ['name'] })
  }
  checkTransport(value.transport, issues)
  if (prefix !== undefined && (typeof prefix !== 'string' || prefix.length > 48)) {
    issues.push({ message: 'prefix must be a string of at most 48 characters', path: ['prefix'] })
  }
  if (typeof trustAnnotations !== 'boolean')
    issues.push({ message: 'must be a boolean', path: ['trustAnnotations'] })
  if (
    timeoutMs !== undefined &&
    (typeof timeoutMs !== 'number' ||
      !Number.isInteger(timeoutMs) ||
      timeoutMs <= 0 ||
      timeoutMs > 2_147_483_647)
  ) {
    issues.push({ message: 'timeoutMs must be a positive integer (≤ 2147483647)', path: ['timeoutMs'] })
  }
  let limits = DEFAULT_SERVER_MESSAGE_LIMITS
  if (value.limits !== undefined && !isRecord(value.limits)) {
    issues.push({ message: 'limits must be { maxBytes?, maxNodes?, maxDepth? }', path: ['limits'] })
  } else if (value.limits !== undefined) {
    for (const key of Object.keys(value.limits))
      if (!['maxBytes', 'maxNodes', 'maxDepth'].includes(key))
        issues.push({ message: 'unknown key', path: ['limits', key] })
    try {
      limits = resolveLimits(value.limits, DEFAULT_SERVER_MESSAGE_LIMITS, 'limits')
    } catch (error) {
      issues.push({ message: (error as Error).message, path: ['limits'] })
    }
  }
  if (issues.length > 0) return { issues }
  return {
    value: Object.freeze({
      name: name as string,
      transport: value.transport as McpTransportConfig,
      prefix: (prefix as string | undefined) ?? `${name as string}__`,
      trustAnnotations: trustAnnotations as boolean,
      timeoutMs: timeoutMs as number | undefined,
      limits,
    }),
  }
}

/** The client plugin's validated `Config` (a Standard Schema, as cordis expects). */
export const Config: StandardConfigSchema<McpClientConfig, ResolvedMcpClientConfig> =
  standardConfigSchema(resolveMcpClientConfig)

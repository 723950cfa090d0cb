import { type ConfigSchema, type ConfigSchemaResult, configSchema } from '@dsh/tools-core'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { DEFAULT_SERVER_MESSAGE_LIMITS, type McpMessageLimits } from './message-limits'

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

const strings = { type: 'record', values: { type: 'string' } } as const
const positive = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const

const isTransportFactory = (value: unknown): value is McpCustomTransportConfig['create'] =>
  typeof value === 'function'

/** The client plugin's validated `Config` (a Standard Schema, as cordis expects), declared once. */
export const Config: ConfigSchema<McpClientConfig, ResolvedMcpClientConfig> = configSchema(
  {
    type: 'object',
    additionalProperties: false,
    properties: {
      name: {
        type: 'string',
        minLength: 1,
        maxLength: 64,
        required: true,
        description: "the server's name: default prefix, warnings, failure messages",
      },
      transport: {
        required: true,
        description:
          'stdio child process `{ command, args?, env?, cwd? }`; Streamable HTTP `{ url, headers? }`; or your own SDK `Transport` per (re)connect `{ create() }`',
        oneOf: [
          {
            type: 'object',
            additionalProperties: false,
            properties: {
              command: { type: 'string', minLength: 1, required: true },
              args: { type: 'array', items: { type: 'string' } },
              env: strings,
              cwd: { type: 'string' },
            },
          },
          {
            type: 'object',
            additionalProperties: false,
            properties: { url: { type: 'string', required: true }, headers: strings },
          },
          {
            type: 'object',
            additionalProperties: false,
            properties: {
              create: {
                type: 'host',
                description: 'a function returning a fresh SDK Transport',
                is: isTransportFactory,
                required: true,
              },
            },
          },
        ],
      },
      prefix: {
        type: 'string',
        maxLength: 48,
        description: 'prepended to every tool name (default `<name>__`); sanitized with the names',
      },
      trustAnnotations: {
        type: 'boolean',
        default: false,
        description:
          'believe `readOnlyHint` / `destructiveHint` / `idempotentHint` / `openWorldHint` (see Trust model)',
      },
      timeoutMs: {
        type: 'integer',
        minimum: 1,
        maximum: 2_147_483_647,
        description:
          "deadline for each `tools/call` and `tools/list` answer (default: the SDK's 60 000), a **total** bound (progress never extends it); also each tool's `timeoutMs`",
      },
      limits: {
        type: 'object',
        additionalProperties: false,
        default: {},
        description:
          'bounds on every message the server sends, checked before anything reads it (see Limits)',
        properties: {
          maxBytes: { ...positive, default: DEFAULT_SERVER_MESSAGE_LIMITS.maxBytes },
          maxNodes: { ...positive, default: DEFAULT_SERVER_MESSAGE_LIMITS.maxNodes },
          maxDepth: { ...positive, default: DEFAULT_SERVER_MESSAGE_LIMITS.maxDepth },
        },
      },
    },
  },
  {
    check: ({ transport }) => {
      if (!('url' in transport)) return []
      const url = URL.canParse(transport.url) ? new URL(transport.url) : undefined
      return url !== undefined && (url.protocol === 'http:' || url.protocol === 'https:')
        ? []
        : [
            {
              path: ['transport', 'url'],
              message: `expected an http(s) URL, got ${JSON.stringify(transport.url)}`,
            },
          ]
    },
    resolve: (config) =>
      Object.freeze({
        ...config,
        prefix: config.prefix ?? `${config.name}__`,
        timeoutMs: config.timeoutMs,
      }),
  },
)

/** Validate a config and fill in defaults (the plugin's `Config` and `apply` both use it). */
export function resolveMcpClientConfig(value: unknown): ConfigSchemaResult<ResolvedMcpClientConfig> {
  return Config['~standard'].validate(value)
}

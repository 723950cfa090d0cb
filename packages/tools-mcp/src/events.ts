/**
 * The cordis events of @dsh/tools-mcp. `mcp/warning` is observe-only: one per problem the
 * client plugin works around (a refused schema, a renamed or malformed tool, a truncated list).
 */

/** One problem the client plugin reported (also logged as a warning). */
export interface McpWarning {
  /** The server's `name` from the plugin config. */
  readonly server: string
  /** The server's own name of the tool concerned, when there is one. */
  readonly tool?: string
  readonly message: string
}

declare module '@deepseek-ai/cordis' {
  interface Events {
    /** Observe-only: the client plugin skipped, renamed or degraded something from a server. */
    'mcp/warning'(warning: McpWarning): void
  }
}

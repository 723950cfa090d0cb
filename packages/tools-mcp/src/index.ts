// Public API of @dsh/tools-mcp. Explicit named re-exports only; no logic here.
export * as default from './client/plugin'
export { apply, Config, inject, name } from './client/plugin'
export type {
  McpClientConfig,
  McpCustomTransportConfig,
  McpHttpTransportConfig,
  McpStdioTransportConfig,
  McpTransportConfig,
  ResolvedMcpClientConfig,
} from './config'
export { McpServerError } from './errors'
export type { McpWarning } from './events'
export type { McpMessageLimits } from './message-limits'
export type { McpServeAuth } from './server/http-access'
export type { McpHttpServeOptions } from './server/http-listener'
export { type McpServeHandle, type ServeMcpOptions, serveMcp } from './server/serve-mcp'

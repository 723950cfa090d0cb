import { ToolErrorCode, ToolsError } from '@dsh/tools-core'

/**
 * An MCP server failed a call: it answered `isError`, returned a protocol error, crashed, hung
 * past `timeoutMs` or could not be started. Code `TOOL_FAILED`, so the model sees an ordinary
 * tool failure; the message names the server and, for a child process, ends with its stderr tail.
 */
export class McpServerError extends ToolsError {
  /** The `name` of the server in the plugin config. */
  readonly server: string
  constructor(server: string, message: string, options?: ErrorOptions) {
    super(ToolErrorCode.TOOL_FAILED, message, options)
    this.server = server
  }
}

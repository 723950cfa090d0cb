import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'

/** How long ending an HTTP session waits for the server to confirm its DELETE. */
export const TERMINATE_WAIT_MS = 1000

/**
 * Tell an HTTP server the session is over (DELETE), as the spec asks of a client that leaves:
 * the SDK's `close()` does not, and the server would keep the session. Bounded: a server that
 * does not answer is left to its own cleanup (`close()` then aborts the request).
 */
export async function terminateHttpSession(transport: StreamableHTTPClientTransport): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, TERMINATE_WAIT_MS)
  })
  await Promise.race([transport.terminateSession().catch(() => undefined), late])
  clearTimeout(timer)
}

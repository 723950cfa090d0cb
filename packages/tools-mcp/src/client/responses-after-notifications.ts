import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'

/**
 * Make a connected SDK client handle each response after the notifications that arrived before
 * it. The SDK runs notification handlers one microtask late but responses at once, and a
 * response drops its request's progress handler: a server's last `notifications/progress`,
 * sent just before its result (server-everything's long-running tool does), was lost. Delaying
 * each response by one microtask (FIFO with the notification hop) restores arrival order.
 * Call after `client.connect(transport)`, which installs `onmessage`.
 */
export function deliverResponsesAfterNotifications(transport: Transport): void {
  const deliver = transport.onmessage
  if (deliver === undefined) return
  transport.onmessage = (message, extra) => {
    if ('method' in message || !('id' in message)) deliver(message, extra)
    else queueMicrotask(() => deliver(message, extra))
  }
}

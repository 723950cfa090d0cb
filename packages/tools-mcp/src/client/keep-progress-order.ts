import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'

const isResponse = (message: JSONRPCMessage): boolean => 'result' in message || 'error' in message
const isProgress = (message: JSONRPCMessage): boolean =>
  (message as { method?: unknown }).method === 'notifications/progress'

/**
 * Keep a call's last progress report ahead of its answer. The SDK runs a notification's handler
 * one microtask after the message arrives but handles a response at once, and forgets the
 * request's progress handler with it: a final `notifications/progress` that arrives in the same
 * read as the answer (typical over stdio) is dropped and reported as a protocol error
 * (modelcontextprotocol/typescript-sdk#2580). After a progress notification, the responses of
 * the same turn go to the SDK one microtask later, behind that notification's handler. Other
 * messages, and every turn without progress, pass straight through.
 *
 * @param transport — a connected transport (its `onmessage` is the SDK's dispatcher).
 */
export function keepProgressOrder(transport: Transport): void {
  const deliver = transport.onmessage
  if (deliver === undefined) return
  let deferring = false
  const stop = () => {
    deferring = false
  }
  transport.onmessage = (message, extra) => {
    if (deferring && isResponse(message)) {
      queueMicrotask(() => deliver.call(transport, message, extra))
      return
    }
    deliver.call(transport, message, extra)
    if (!deferring && isProgress(message)) {
      deferring = true
      queueMicrotask(stop)
    }
  }
}

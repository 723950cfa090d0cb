import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import type { MessageHandler } from '../gate-messages'

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
 * @param deliver — the SDK's dispatcher (the transport's `onmessage`).
 * @returns the handler to give the transport instead.
 */
export function keepProgressOrder(deliver: MessageHandler): MessageHandler {
  let deferring = false
  const stop = () => {
    deferring = false
  }
  return function ordered(this: unknown, message, extra) {
    if (deferring && isResponse(message)) {
      queueMicrotask(() => deliver.call(this, message, extra))
      return
    }
    deliver.call(this, message, extra)
    if (!deferring && isProgress(message)) {
      deferring = true
      queueMicrotask(stop)
    }
  }
}

import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'

/** What a gate does with one incoming message: pass it (maybe replaced) or drop it (`undefined`). */
export type MessageFilter = (message: JSONRPCMessage) => JSONRPCMessage | undefined

/**
 * Put `filter` between `transport` and whatever reads its messages (the SDK's `Protocol`, which
 * assigns `onmessage` inside `connect()`, before the first message: so the gate is installed
 * before `connect` and wraps each handler as it is assigned). The transport object itself is
 * kept, so its own members (`pid`, `sessionId`, `instanceof`) stay as they are.
 */
export function gateMessages(transport: Transport, filter: MessageFilter): void {
  let handler: Transport['onmessage']
  let gated: Transport['onmessage']
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => gated,
    set(next: Transport['onmessage']) {
      handler = next
      gated =
        next === undefined
          ? undefined
          : (message, extra) => {
              const admitted = filter(message)
              if (admitted !== undefined) handler?.call(transport, admitted, extra)
            }
    },
  })
}

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
  let gated: Transport['onmessage']
  // A handler assigned later that calls the one it read (`keepProgressOrder`) puts two gates in
  // a row: a message the first one admitted passes the second without being measured again.
  const admitted = new WeakSet<object>()
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => gated,
    // Each wrapper calls the handler it was made for.
    set(next: Transport['onmessage']) {
      gated =
        next === undefined
          ? undefined
          : (message, extra) => {
              if (admitted.has(message)) return next.call(transport, message, extra)
              const passed = filter(message)
              if (passed === undefined) return
              admitted.add(passed)
              next.call(transport, passed, extra)
            }
    },
  })
}

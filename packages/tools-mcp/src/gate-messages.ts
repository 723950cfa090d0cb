import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'

/** What a gate does with one incoming message: pass it (maybe replaced) or drop it (`undefined`). */
export type MessageFilter = (message: JSONRPCMessage) => JSONRPCMessage | undefined

/** A message handler as a transport calls it. */
export type MessageHandler = NonNullable<Transport['onmessage']>

/** A gate installed by {@link gateMessages}. */
export interface MessageGate {
  /**
   * Put `wrap` between the gate and the handler (for `keepProgressOrder`): messages still pass
   * the gate first, once, and a handler assigned later is wrapped too.
   */
  within(wrap: (handler: MessageHandler) => MessageHandler): void
}

/**
 * Put `filter` between `transport` and whatever reads its messages (the SDK's `Protocol`, which
 * assigns `onmessage` inside `connect()`, before the first message: so the gate is installed
 * before `connect` and wraps each handler as it is assigned). The transport object itself is
 * kept, so its own members (`pid`, `sessionId`, `instanceof`) stay as they are.
 */
export function gateMessages(transport: Transport, filter: MessageFilter): MessageGate {
  let assigned: Transport['onmessage']
  let gated: Transport['onmessage']
  let inner = (handler: MessageHandler): MessageHandler => handler
  const build = () => {
    if (assigned === undefined) {
      gated = undefined
      return
    }
    const next = inner(assigned)
    gated = (message, extra) => {
      const passed = filter(message)
      if (passed !== undefined) next.call(transport, passed, extra)
    }
  }
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => gated,
    set(handler: Transport['onmessage']) {
      assigned = handler
      build()
    },
  })
  return {
    within(wrap) {
      const previous = inner
      inner = (handler) => wrap(previous(handler))
      build()
    },
  }
}

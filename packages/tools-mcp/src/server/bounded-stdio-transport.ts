import process from 'node:process'
import type { Readable, Writable } from 'node:stream'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'

/** What {@link BoundedStdioServerTransport} does with one complete line of input. */
export type LineHandler = (line: string) => void

/**
 * MCP over this process's stdin/stdout, one JSON-RPC message per line, with each line bounded
 * by `maxBytes` *before* it is decoded or parsed. The SDK's `StdioServerTransport` concatenates
 * its whole buffer on every chunk (quadratic in a long line) and closes the transport when a
 * line passes its cap, ending the server for every later request; here a chunk is kept once,
 * and an oversized line is dropped up to its newline and reported through `onoversize` while
 * the transport keeps serving. Parsing and measuring a line is the caller's (`online`).
 */
export class BoundedStdioServerTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  #chunks: Buffer[] = []
  #size = 0
  /** Dropping the rest of an oversized line until its newline. */
  #skipping = false
  #started = false
  readonly #stdin: Readable
  readonly #stdout: Writable

  constructor(
    readonly maxBytes: number,
    readonly online: LineHandler,
    readonly onoversize: () => void,
    stdin: Readable = process.stdin,
    stdout: Writable = process.stdout,
  ) {
    this.#stdin = stdin
    this.#stdout = stdout
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error('BoundedStdioServerTransport already started')
    this.#started = true
    this.#stdin.on('data', this.#ondata)
    this.#stdin.on('error', this.#onerror)
  }

  #onerror = (error: Error): void => this.onerror?.(error)

  #ondata = (chunk: Buffer): void => {
    let from = 0
    for (let newline = chunk.indexOf(10, from); newline !== -1; newline = chunk.indexOf(10, from)) {
      this.#append(chunk.subarray(from, newline))
      from = newline + 1
      if (this.#skipping) this.#skipping = false
      else this.#emitLine()
      this.#chunks = []
      this.#size = 0
    }
    this.#append(chunk.subarray(from))
  }

  #append(part: Buffer): void {
    if (this.#skipping || part.length === 0) return
    this.#size += part.length
    if (this.#size > this.maxBytes) {
      this.#skipping = true
      this.#chunks = []
      this.#size = 0
      this.onoversize()
      return
    }
    this.#chunks.push(part)
  }

  #emitLine(): void {
    const line = Buffer.concat(this.#chunks, this.#size).toString('utf8').replace(/\r$/, '')
    if (line.trim() === '') return
    try {
      this.online(line)
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)))
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.#stdout.write(`${JSON.stringify(message)}\n`)) resolve()
      else this.#stdout.once('drain', resolve)
    })
  }

  async close(): Promise<void> {
    this.#stdin.off('data', this.#ondata)
    this.#stdin.off('error', this.#onerror)
    if (this.#stdin.listenerCount('data') === 0) this.#stdin.pause()
    this.#chunks = []
    this.onclose?.()
  }
}

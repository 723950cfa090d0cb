/**
 * A loopback TCP relay in front of the test server: tests count the connections a pool holds
 * and cut them (a server restart or a network drop, as the client sees it) without touching the
 * server itself — or silence them (a server or network that stops answering, with the TCP
 * connection still open). It works the same on a real PostgreSQL and on PGlite.
 */
import { createServer, type Server, Socket } from 'node:net'

export interface TcpProxy {
  /** The test server's URL with host and port replaced by the relay's. */
  readonly connectionString: string
  /** Client connections open through the relay now. */
  openConnections(): number
  /** Destroy every relayed connection (both sides). */
  cut(): void
  /** While on, bytes from clients are swallowed: nothing reaches the server, nothing answers. */
  silence(on: boolean): void
  close(): Promise<void>
}

export async function startTcpProxy(connectionString: string): Promise<TcpProxy> {
  const target = new URL(connectionString)
  const pairs = new Set<[Socket, Socket]>()
  let silent = false
  const server: Server = createServer((client) => {
    const upstream = new Socket()
    const pair: [Socket, Socket] = [client, upstream]
    pairs.add(pair)
    const drop = () => {
      pairs.delete(pair)
      client.destroy()
      upstream.destroy()
    }
    client.on('error', drop).on('close', drop)
    upstream.on('error', drop).on('close', drop)
    upstream.connect(Number(target.port || 5432), target.hostname, () => {
      client.on('data', (chunk) => {
        if (!silent) upstream.write(chunk)
      })
      upstream.pipe(client)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('relay has no port')
  const relayed = new URL(connectionString)
  relayed.hostname = '127.0.0.1'
  relayed.port = String(address.port)
  const cut = () => {
    for (const [client, upstream] of pairs) {
      client.destroy()
      upstream.destroy()
    }
    pairs.clear()
  }
  return {
    connectionString: relayed.toString(),
    openConnections: () => pairs.size,
    cut,
    silence(on) {
      silent = on
    },
    close() {
      cut()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}

/** A loopback port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** A loopback server that accepts connections and never answers (a hung server). */
export async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    port,
    close() {
      for (const socket of sockets) socket.destroy()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}

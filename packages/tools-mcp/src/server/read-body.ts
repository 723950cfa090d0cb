import type { IncomingMessage } from 'node:http'

/**
 * The request body as text, or `undefined` when it is longer than `maxBytes` (told by its
 * `Content-Length` before reading, or counted while reading: nothing past the limit is kept).
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<string | undefined> {
  const declared = Number(req.headers['content-length'])
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve(undefined)
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const ondata = (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBytes) {
        req.off('data', ondata)
        chunks.length = 0
        resolve(undefined)
        return
      }
      chunks.push(chunk)
    }
    req.on('data', ondata)
    req.once('end', () => {
      if (size <= maxBytes) resolve(Buffer.concat(chunks, size).toString('utf8'))
    })
    req.once('error', reject)
  })
}

import { createHash, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { isIP } from 'node:net'

/**
 * Who may use a `serveMcp` HTTP endpoint: a bearer token every request must carry
 * (`Authorization: Bearer <token>`), or your own check of the request.
 */
export type McpServeAuth =
  | { readonly token: string }
  | { readonly verify: (req: IncomingMessage) => boolean | Promise<boolean> }

/** Whether `host` names this machine only (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase()
  if (bare === 'localhost' || bare === '::1') return true
  return isIP(bare) === 4 && bare.startsWith('127.')
}

const digest = (text: string): Buffer => createHash('sha256').update(text).digest()

/** Check `auth` (validated once, when the endpoint starts). */
export function checkAuth(auth: McpServeAuth | undefined): void {
  if (auth === undefined) return
  if ('token' in auth) {
    if (typeof auth.token !== 'string' || auth.token.length < 16)
      throw new TypeError('serveMcp: auth.token must be a string of at least 16 characters')
  } else if (typeof (auth as { verify?: unknown }).verify !== 'function') {
    throw new TypeError('serveMcp: auth must be { token } or { verify(req) }')
  }
}

/** The request's bearer credential, if it sent one. */
const bearerOf = (req: IncomingMessage): string | undefined =>
  /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim()

/** Whether `req` passes `auth` (a hook that throws or answers anything but `true` refuses). */
export async function authorized(req: IncomingMessage, auth: McpServeAuth | undefined): Promise<boolean> {
  if (auth === undefined) return true
  if ('token' in auth) {
    const bearer = bearerOf(req)
    // Compared as digests: constant time, whatever the lengths.
    return bearer !== undefined && timingSafeEqual(digest(bearer), digest(auth.token))
  }
  try {
    return (await auth.verify(req)) === true
  } catch {
    return false
  }
}

/**
 * Who a request comes from, for per-client session limits and session ownership: with `auth`,
 * the credential it authenticated with (its `Authorization` header, hashed); without, its
 * remote address (so on loopback without `auth` every local process is one client).
 */
export function clientOf(req: IncomingMessage, auth: McpServeAuth | undefined): string {
  if (auth !== undefined) return `credential:${digest(req.headers.authorization ?? '').toString('hex')}`
  return `address:${req.socket.remoteAddress ?? 'unknown'}`
}

/**
 * Whether the request's `Origin` (sent by browsers) may reach the endpoint: no `Origin` (not a
 * browser) passes; otherwise it must be in `allowed`, or, by default, be a loopback origin. A
 * web page on another site (DNS rebinding included) is refused.
 */
export function originAllowed(req: IncomingMessage, allowed: readonly string[] | undefined): boolean {
  const origin = req.headers.origin
  if (origin === undefined) return true
  if (!URL.canParse(origin)) return false
  const url = new URL(origin)
  if (allowed !== undefined)
    return allowed.some((entry) => URL.canParse(entry) && new URL(entry).origin === url.origin)
  return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackHost(url.hostname)
}

/**
 * A response that is not the provider's shape (the wrong provider's response, an error body, a
 * stream event) is a caller mistake: a `TypeError` that names what is missing, never a
 * `cannot read properties of undefined` from deep inside.
 */
export function listAt(provider: string, value: unknown, path: string): readonly unknown[] {
  if (Array.isArray(value)) return value
  throw new TypeError(
    `providerCalls('${provider}'): the response has no \`${path}\` array — is it a ${provider} response?`,
  )
}

/** A call's id or name, which must be a string. */
export function textAt(provider: string, value: unknown, path: string): string {
  if (typeof value === 'string') return value
  throw new TypeError(`providerCalls('${provider}'): \`${path}\` must be a string (got ${typeof value})`)
}

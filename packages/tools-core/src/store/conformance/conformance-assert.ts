/**
 * Assertions for the store conformance kit. Framework-free on purpose: the kit runs under any
 * test runner, and a failure is a plain `Error` whose message says which rule broke and how.
 */
import type { StoredLease, StoredRecord } from '../tool-state-store'

/** Throws `Error(message)` unless `condition` holds. */
export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`store conformance: ${message}`)
}

/** Where two texts first differ, for a message that does not print megabytes. */
export function describeTextDifference(actual: string, expected: string): string {
  let index = 0
  const shorter = Math.min(actual.length, expected.length)
  while (index < shorter && actual.charCodeAt(index) === expected.charCodeAt(index)) index++
  const around = (text: string) => JSON.stringify(text.slice(Math.max(0, index - 8), index + 16))
  return (
    `lengths ${actual.length} vs ${expected.length} (UTF-16 units), first difference at ${index}: ` +
    `got ${around(actual)}, expected ${around(expected)}`
  )
}

/** Checks that `actual` is exactly `expected`, byte for byte. */
export function checkSameText(actual: unknown, expected: string, what: string): void {
  check(typeof actual === 'string', `${what}: expected a string, got ${typeof actual}`)
  if (actual !== expected) {
    throw new Error(`store conformance: ${what} changed: ${describeTextDifference(actual, expected)}`)
  }
}

function sameLease(actual: StoredLease | undefined, expected: StoredLease | undefined): boolean {
  if (actual === undefined || expected === undefined) return actual === expected
  return actual.owner === expected.owner && actual.until === expected.until
}

/** The fields a test states about a record; `lease` undefined means "no lease". */
export type ExpectedRecord = Omit<StoredRecord, 'lease'> & { readonly lease?: StoredLease | undefined }

/** Checks every field of a returned record against what the contract says it must hold. */
export function checkRecord(actual: StoredRecord | undefined, expected: ExpectedRecord, what: string): void {
  check(actual !== undefined, `${what}: expected a record, got undefined`)
  for (const field of [
    'kind',
    'agent',
    'key',
    'state',
    'version',
    'createdAt',
    'updatedAt',
    'expiresAt',
  ] as const) {
    check(
      Object.is(actual[field], expected[field]),
      `${what}: ${field} is ${JSON.stringify(actual[field])}, expected ${JSON.stringify(expected[field])}`,
    )
  }
  checkSameText(actual.data, expected.data, `${what}: data`)
  check(
    sameLease(actual.lease ?? undefined, expected.lease),
    `${what}: lease is ${JSON.stringify(actual.lease)}, expected ${JSON.stringify(expected.lease)}`,
  )
}

/** Runs `action` and returns what it rejected with; throws when it resolves. */
export async function rejectionOf(action: () => Promise<unknown>, what: string): Promise<unknown> {
  try {
    await action()
  } catch (error) {
    return error
  }
  throw new Error(`store conformance: ${what}: expected a rejection, but it resolved`)
}

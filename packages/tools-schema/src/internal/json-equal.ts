import { currentInterner } from './json-intern'

/** True for a value that is not a container (JSON scalars compare by identity). */
export function isScalarValue(value: unknown): boolean {
  return typeof value !== 'object' || value === null
}

/** Membership test for `enum`: scalars by identity, containers by canonical token. */
export class JsonValueSet {
  private readonly scalars = new Set<unknown>()
  private readonly containers: unknown[] = []

  constructor(values: readonly unknown[]) {
    for (const value of values) {
      if (typeof value === 'object' && value !== null) this.containers.push(value)
      else this.scalars.add(value)
    }
  }

  has(value: unknown): boolean {
    if (typeof value !== 'object' || value === null) return this.scalars.has(value)
    if (this.containers.length === 0) return false
    const interner = currentInterner()
    return interner.tokensOf(this.containers).has(interner.token(value))
  }
}

/** The first index `j` whose item equals an earlier item `i`, as `[i, j]`, or undefined. */
export function findDuplicate(items: readonly unknown[]): [number, number] | undefined {
  const interner = currentInterner()
  const seen = new Map<string, number>()
  for (let j = 0; j < items.length; j++) {
    const id = interner.token(items[j])
    const i = seen.get(id)
    if (i !== undefined) return [i, j]
    seen.set(id, j)
  }
  return undefined
}

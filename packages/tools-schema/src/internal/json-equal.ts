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

/** Arrays up to this length are checked pair by pair: no `Map` is allocated for them. */
const PAIRWISE = 8

/** The first index `j` whose item equals an earlier item `i`, as `[i, j]`, or undefined. */
export function findDuplicate(items: readonly unknown[]): [number, number] | undefined {
  const interner = currentInterner()
  if (items.length <= PAIRWISE) {
    const tokens = items.map((item) => interner.token(item))
    for (let j = 1; j < tokens.length; j++)
      for (let i = 0; i < j; i++) if (tokens[i] === tokens[j]) return [i, j]
    return undefined
  }
  const seen = new Map<unknown, number>()
  for (let j = 0; j < items.length; j++) {
    const token = interner.token(items[j])
    const i = seen.get(token)
    if (i !== undefined) return [i, j]
    seen.set(token, j)
  }
  return undefined
}

/** Output text pushed on the work stack (never confused with a value being serialised). */
class Literal {
  constructor(readonly text: string) {}
}

const CLOSE_ARRAY = new Literal(']')
const CLOSE_OBJECT = new Literal('}')
const COMMA = new Literal(',')

/**
 * A canonical text for a JSON value (object keys sorted), built iteratively so a 100,000-deep
 * value is fine. Two JSON values are equal for `enum`, `const` and `uniqueItems` exactly when
 * their canonical texts are equal (numbers compare by value: `1` and `1.0` are one number).
 */
export function canonicalJson(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'undefined'
  const out: string[] = []
  const stack: unknown[] = [value]
  while (stack.length > 0) {
    const item = stack.pop()
    if (item instanceof Literal) {
      out.push(item.text)
    } else if (Array.isArray(item)) {
      out.push('[')
      stack.push(CLOSE_ARRAY)
      for (let i = item.length - 1; i >= 0; i--) {
        stack.push(item[i])
        if (i > 0) stack.push(COMMA)
      }
    } else if (typeof item === 'object' && item !== null) {
      out.push('{')
      stack.push(CLOSE_OBJECT)
      const keys = Object.keys(item).sort()
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push((item as Record<string, unknown>)[keys[i]!])
        stack.push(new Literal(`${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:`))
      }
    } else out.push(JSON.stringify(item) ?? 'undefined')
  }
  return out.join('')
}

/** True for a value that is not a container (JSON scalars compare by identity). */
export function isScalarValue(value: unknown): boolean {
  return typeof value !== 'object' || value === null
}

/** Membership test for `enum`: scalars by identity, containers by canonical text. */
export class JsonValueSet {
  private readonly scalars = new Set<unknown>()
  private readonly containers = new Set<string>()

  constructor(values: readonly unknown[]) {
    for (const value of values) {
      if (typeof value === 'object' && value !== null) this.containers.add(canonicalJson(value))
      else this.scalars.add(value)
    }
  }

  has(value: unknown): boolean {
    if (typeof value !== 'object' || value === null) return this.scalars.has(value)
    return this.containers.size > 0 && this.containers.has(canonicalJson(value))
  }
}

/** The first index `j` whose item equals an earlier item `i`, as `[i, j]`, or undefined. */
export function findDuplicate(items: readonly unknown[]): [number, number] | undefined {
  const scalars = new Map<unknown, number>()
  const containers = new Map<string, number>()
  for (let j = 0; j < items.length; j++) {
    const item = items[j]
    const container = typeof item === 'object' && item !== null
    const key = container ? canonicalJson(item) : item
    const seen = container ? containers : scalars
    const i = seen.get(key as string)
    if (i !== undefined) return [i, j]
    seen.set(key as string, j)
  }
  return undefined
}

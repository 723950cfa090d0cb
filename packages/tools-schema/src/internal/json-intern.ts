/**
 * Canonical ids of JSON values for one validation: two values get the same id exactly when
 * they are equal as JSON (`1` and `1.0` are one number, `-0` is `0`, object key order is
 * irrelevant). Each container's id is computed once, from its members' ids, and remembered:
 * `uniqueItems` at every level of a recursive schema, or an `enum` of objects reached at every
 * level, costs one pass over the value in total instead of re-reading every subtree at every
 * enclosing level (which was depth × size).
 */
export class JsonInterner {
  private readonly ids = new Map<object, number>()
  private readonly strings = new Map<string, number>()
  private readonly numbers = new Map<number, number>()
  /** Containers by their members' ids; other values (non-JSON) by kind and text. */
  private readonly keys = new Map<string, number>()
  private readonly memberIds = new Map<readonly unknown[], Set<number>>()
  /** Containers whose members are being read (an ancestor met again is a cycle). */
  private readonly open = new Set<object>()
  // 0, 1 and 2 are null, true and false.
  private next = 3

  private intern(key: string): number {
    let id = this.keys.get(key)
    if (id === undefined) {
      id = this.next++
      this.keys.set(key, id)
    }
    return id
  }

  private scalar(value: unknown): number {
    if (typeof value === 'string') {
      let id = this.strings.get(value)
      if (id === undefined) {
        id = this.next++
        this.strings.set(value, id)
      }
      return id
    }
    if (typeof value === 'number') {
      const number = value === 0 ? 0 : value
      let id = this.numbers.get(number)
      if (id === undefined) {
        id = this.next++
        this.numbers.set(number, id)
      }
      return id
    }
    if (value === null) return 0
    if (value === true) return 1
    if (value === false) return 2
    // Non-JSON values (refused by other checks): equal only to themselves by kind and text.
    return this.intern(`?${typeof value}:${String(value)}`)
  }

  /** The canonical id of `value` (iterative: any depth). */
  id(value: unknown): number {
    if (typeof value !== 'object' || value === null) return this.scalar(value)
    const known = this.ids.get(value)
    if (known !== undefined) return known
    const stack: object[] = [value]
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!
      if (this.ids.has(top)) {
        stack.pop()
        continue
      }
      const members = Array.isArray(top) ? top : Object.values(top)
      if (!this.open.has(top)) {
        this.open.add(top)
        for (const member of members) {
          if (typeof member !== 'object' || member === null || this.ids.has(member)) continue
          // A cycle is not JSON (other checks refuse it): give it an id equal to nothing else.
          if (this.open.has(member)) this.ids.set(member, this.next++)
          else stack.push(member)
        }
        continue
      }
      stack.pop()
      this.open.delete(top)
      this.ids.set(top, this.intern(this.containerKey(top)))
    }
    return this.ids.get(value)!
  }

  /**
   * A container's key from its members' ids (all known by now). Object members are ordered by
   * their name's id: names are interned like strings, so equal names sort alike in one run.
   */
  private containerKey(container: object): string {
    if (Array.isArray(container)) {
      let key = '['
      for (const member of container) key += `${this.id(member)},`
      return key
    }
    const record = container as Record<string, unknown>
    const names = Object.keys(record)
    const pairs = new Array<number>(names.length * 2)
    const order = new Array<number>(names.length)
    for (let i = 0; i < names.length; i++) {
      pairs[2 * i] = this.scalar(names[i])
      pairs[2 * i + 1] = this.id(record[names[i]!])
      order[i] = i
    }
    order.sort((a, b) => pairs[2 * a]! - pairs[2 * b]!)
    let key = '{'
    for (const i of order) key += `${pairs[2 * i]}:${pairs[2 * i + 1]},`
    return key
  }

  /** The ids of a schema's `enum` / `const` containers, interned once per validation. */
  idsOf(containers: readonly unknown[]): Set<number> {
    let ids = this.memberIds.get(containers)
    if (ids === undefined) {
      ids = new Set(containers.map((member) => this.id(member)))
      this.memberIds.set(containers, ids)
    }
    return ids
  }
}

let current: JsonInterner | undefined

/** The interner of the validation running now (created on first use). */
export function currentInterner(): JsonInterner {
  current ??= new JsonInterner()
  return current
}

/**
 * Runs one validation with its own interner, released afterwards: ids are facts about values
 * as they are during one synchronous validation, so none outlives it (a value may change later).
 */
export function withFreshInterner<T>(run: () => T): T {
  const outer = current
  current = undefined
  try {
    return run()
  } finally {
    current = outer
  }
}

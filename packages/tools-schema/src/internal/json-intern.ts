/**
 * Canonical tokens of JSON values for one validation: two values get the same token exactly when
 * they are equal as JSON (`1` and `1.0` are one number, `-0` is `0`, object key order is
 * irrelevant). Each container's id is computed once, from its members' ids, and remembered:
 * `uniqueItems` at every level of a recursive schema, or an `enum` of objects reached at every
 * level, costs one pass over the value in total instead of re-reading every subtree at every
 * enclosing level (which was depth × size).
 */
/** The token of a container whose members are being read (met again from below: a cycle). */
const OPEN = ''

export class JsonInterner {
  /** Container → its canonical token (`#` and an id). */
  private readonly tokens = new Map<object, string>()
  /** Canonical container keys → ids. */
  private readonly keys = new Map<string, number>()
  private readonly memberTokens = new Map<readonly unknown[], Set<string>>()
  private next = 0
  /**
   * Containers whose whole subtree was found to be JSON during this validation (json-check): an
   * any-JSON node reached at every level of a recursion walks each subtree once, not once per level.
   */
  readonly verifiedJson = new Set<object>()

  /**
   * The canonical token of `value`: equal tokens exactly when the values are equal as JSON.
   * Scalars spell themselves out (a string with its length, so no member can run into the
   * next); a container is `#` and the id of its members' tokens (iterative: any depth).
   */
  token(value: unknown): string {
    switch (typeof value) {
      case 'string':
        return `s${value.length}:${value}`
      case 'number':
        return `n${value === 0 ? 0 : value}`
      case 'boolean':
        return value ? 't' : 'f'
      case 'object': {
        if (value === null) return 'z'
        const known = this.tokens.get(value)
        return known === undefined || known === OPEN ? this.container(value) : known
      }
      default:
        // Non-JSON values (refused by other checks): equal only to themselves by kind and text.
        return `?${typeof value}:${String(value)}`
    }
  }

  private container(value: object): string {
    const tokens = this.tokens
    const stack: object[] = [value]
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!
      const known = tokens.get(top)
      if (known !== undefined && known !== OPEN) {
        stack.pop()
        continue
      }
      if (known === undefined) {
        // First visit: queue the members still without a token; a container without any is
        // keyed at once (the leaves of a tree never wait on the stack).
        tokens.set(top, OPEN)
        let waiting = false
        for (const member of Array.isArray(top) ? top : Object.values(top)) {
          if (typeof member !== 'object' || member === null) continue
          const state = tokens.get(member)
          if (state === undefined) {
            stack.push(member)
            waiting = true
          } else if (state === OPEN) {
            // An ancestor: a cycle is not JSON (other checks refuse it), equal to nothing else.
            tokens.set(member, `#${this.next++}`)
          }
        }
        if (waiting) continue
        // It contains itself: the cycle gave it its token.
        if (tokens.get(top) !== OPEN) {
          stack.pop()
          continue
        }
      }
      stack.pop()
      const key = this.containerKey(top)
      let id = this.keys.get(key)
      if (id === undefined) {
        id = this.next++
        this.keys.set(key, id)
      }
      tokens.set(top, `#${id}`)
    }
    return tokens.get(value)!
  }

  /** A container's key from its members' tokens (all known by now); object members by name. */
  private containerKey(container: object): string {
    if (Array.isArray(container)) {
      let key = '['
      for (const member of container) key += `${this.token(member)},`
      return key
    }
    const record = container as Record<string, unknown>
    let key = '{'
    for (const name of Object.keys(record).sort()) key += `${name.length}:${name}${this.token(record[name])},`
    return key
  }

  /** The tokens of a schema's `enum` / `const` containers, read once per validation. */
  tokensOf(containers: readonly unknown[]): Set<string> {
    let tokens = this.memberTokens.get(containers)
    if (tokens === undefined) {
      tokens = new Set(containers.map((member) => this.token(member)))
      this.memberTokens.set(containers, tokens)
    }
    return tokens
  }
}

let current: JsonInterner | undefined
let validating = 0

/**
 * The interner of the validation running now (created on first use); outside a validation, a
 * fresh one that nothing keeps (no fact outlives the validation that learned it).
 */
export function currentInterner(): JsonInterner {
  if (current !== undefined) return current
  const fresh = new JsonInterner()
  if (validating > 0) current = fresh
  return fresh
}

/**
 * Starts one validation with its own interner (created on first use); pass the returned value
 * to {@link endValidation} in a `finally`. Tokens are facts about values as they are during one
 * synchronous validation, so none outlives it (a value may change later).
 */
export function beginValidation(): JsonInterner | undefined {
  const outer = current
  current = undefined
  validating++
  return outer
}

/** Ends the validation {@link beginValidation} started, restoring the enclosing one's interner. */
export function endValidation(outer: JsonInterner | undefined): void {
  validating--
  current = outer
}

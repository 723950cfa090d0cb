/**
 * The class of JSON-equal containers: one record per distinct container value in a validation,
 * so two containers are equal exactly when they map to the same record (an identity check).
 */
export interface JsonClass {
  /** A sequence number: names the class in an overflow key. */
  readonly id: number
  /** A hash of the class's members (seeded per process), for the bucket table. */
  readonly hash: number
  /** A container of the class, compared member by member with a candidate. */
  readonly sample: object
}

/** The class of a container whose members are being read (met again from below: a cycle). */
const OPEN: JsonClass = Object.freeze({ id: -1, hash: 0, sample: {} })

/**
 * Most classes compared member by member in one hash bucket. Past it a candidate is keyed by its
 * members' text: a run of colliding hashes (which the seed makes hard to build) costs each
 * container at most this many shallow comparisons, never a scan of a long bucket.
 */
const BUCKET_COMPARISONS = 8

/** The seed of every hash: not knowable by whoever wrote the value. */
const SEED = (Math.random() * 0x1_0000_0000) | 0

const float = new Float64Array(1)
const floatWords = new Int32Array(float.buffer)

/** A 32-bit finaliser (murmur3's): every input bit reaches every output bit. */
function mix(h: number): number {
  h ^= h >>> 16
  h = Math.imul(h, 0x85eb_ca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2_ae35)
  return h ^ (h >>> 16)
}

function stringHash(text: string): number {
  let h = SEED ^ text.length
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x0100_0193)
  return mix(h)
}

/** A JSON bucket of classes: compared one by one, then (past the bound) keyed by text. */
interface Bucket {
  readonly classes: JsonClass[]
  overflow?: Map<string, JsonClass>
}

/**
 * Canonical classes of JSON values for one validation: two containers get the same class exactly
 * when they are equal as JSON (`1` and `1.0` are one number, `-0` is `0`, object key order is
 * irrelevant). A container's class is found once, from its members' classes, and remembered:
 * `uniqueItems` at every level of a recursive schema, or an `enum` of objects reached at every
 * level, costs one pass over the value in total instead of re-reading every subtree at every
 * enclosing level (which was depth × size). Classes are hash-consed by a numeric hash and a
 * member-by-member comparison (members are scalars or already-classed containers, so it is
 * shallow), with no string built per container: a text key per container made the garbage
 * collector the main cost.
 */
export class JsonInterner {
  /** Container → its class. */
  private readonly classes = new Map<object, JsonClass>()
  /** Hash → the class with it, or a bucket once two classes share it. */
  private readonly buckets = new Map<number, JsonClass | Bucket>()
  private readonly memberTokens = new Map<readonly unknown[], Set<unknown>>()
  private next = 0
  /**
   * Containers whose whole subtree was found to be JSON during this validation (json-check): an
   * any-JSON node reached at every level of a recursion walks each subtree once, not once per level.
   */
  readonly verifiedJson = new Set<object>()

  /**
   * @param hashOf how a container's members hash; tests pass a constant one to drive every
   *   container through one bucket and its overflow.
   */
  constructor(
    private readonly hashOf: (container: object) => number = (container) => this.containerHash(container),
  ) {}

  /**
   * The canonical token of `value`, for `Set`/`Map` keys and `===`: equal tokens exactly when
   * the values are equal as JSON. A scalar is its own token (`===` is JSON equality for JSON
   * scalars: `-0 === 0`); a container's is its {@link JsonClass} (iterative: any depth).
   */
  token(value: unknown): unknown {
    if (typeof value !== 'object' || value === null) return value
    return this.classOf(value)
  }

  /** The class of a container. */
  classOf(value: object): JsonClass {
    const known = this.classes.get(value)
    return known === undefined || known === OPEN ? this.container(value) : known
  }

  private container(value: object): JsonClass {
    const classes = this.classes
    const stack: object[] = [value]
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!
      const known = classes.get(top)
      if (known !== undefined && known !== OPEN) {
        stack.pop()
        continue
      }
      if (known === undefined) {
        // First visit: queue the members still without a class; a container without any is
        // classed at once (the leaves of a tree never wait on the stack). It is marked open
        // only once it has a container member: only then can it be part of a cycle.
        let open = false
        let waiting = false
        for (const member of Array.isArray(top) ? top : Object.values(top)) {
          if (typeof member !== 'object' || member === null) continue
          if (!open) {
            classes.set(top, OPEN)
            open = true
          }
          const state = classes.get(member)
          if (state === undefined) {
            stack.push(member)
            waiting = true
          } else if (state === OPEN) {
            // An ancestor: a cycle is not JSON (other checks refuse it), equal to nothing else.
            classes.set(member, { id: this.next++, hash: 0, sample: member })
          }
        }
        if (waiting) continue
        // It contains itself: the cycle gave it its class.
        if (open && classes.get(top) !== OPEN) {
          stack.pop()
          continue
        }
      }
      stack.pop()
      classes.set(top, this.intern(top))
    }
    return classes.get(value)!
  }

  /** The class of a container whose members all have theirs. */
  private intern(container: object): JsonClass {
    const hash = this.hashOf(container)
    const found = this.buckets.get(hash)
    if (found === undefined) return this.fresh(container, hash, undefined)
    if (!('classes' in found)) {
      // One class with this hash so far (the common case: no bucket is allocated).
      if (this.sameMembers(found.sample, container)) return found
      const bucket: Bucket = { classes: [found] }
      this.buckets.set(hash, bucket)
      return this.fresh(container, hash, bucket)
    }
    for (const known of found.classes) if (this.sameMembers(known.sample, container)) return known
    if (found.classes.length < BUCKET_COMPARISONS) return this.fresh(container, hash, found)
    found.overflow ??= new Map()
    const key = this.containerKey(container)
    let keyed = found.overflow.get(key)
    if (keyed === undefined) {
      keyed = { id: this.next++, hash, sample: container }
      found.overflow.set(key, keyed)
    }
    return keyed
  }

  /** A new class for `container`, filed under its hash (alone, or in `bucket`). */
  private fresh(container: object, hash: number, bucket: Bucket | undefined): JsonClass {
    const created: JsonClass = { id: this.next++, hash, sample: container }
    if (bucket === undefined) this.buckets.set(hash, created)
    else bucket.classes.push(created)
    return created
  }

  private memberHash(member: unknown): number {
    switch (typeof member) {
      case 'string':
        return stringHash(member)
      case 'number':
        if ((member | 0) === member) return mix(member ^ SEED)
        float[0] = member
        return mix(floatWords[0]! ^ mix(floatWords[1]! ^ SEED))
      case 'boolean':
        return member ? 0x2b7e_1516 : 0x28ae_d2a6
      case 'object':
        return member === null ? 0x3c6e_f372 : mix(this.classOf(member).hash ^ 0x5bd1_e995)
      default:
        return 0
    }
  }

  /** Arrays hash in order; objects as an order-free sum over their entries. */
  private containerHash(container: object): number {
    if (Array.isArray(container)) {
      let h = SEED ^ 0x6a09_e667
      for (const member of container) h = Math.imul(h ^ this.memberHash(member), 0x0100_0193)
      return mix(h ^ container.length)
    }
    let sum = 0
    let count = 0
    const record = container as Record<string, unknown>
    for (const name in record) {
      if (!Object.hasOwn(record, name)) continue
      sum = (sum + mix(stringHash(name) ^ Math.imul(this.memberHash(record[name]), 0x9e37_79b9))) | 0
      count++
    }
    return mix(sum ^ Math.imul(count, 0x7f4a_7c15) ^ SEED)
  }

  /** Members equal one by one: scalars by `===`, containers by class (both are classed). */
  private sameMembers(a: object, b: object): boolean {
    if (Array.isArray(a)) {
      if (!Array.isArray(b) || a.length !== b.length) return false
      for (let i = 0; i < a.length; i++) if (!this.sameMember(a[i], b[i])) return false
      return true
    }
    if (Array.isArray(b)) return false
    const left = a as Record<string, unknown>
    const right = b as Record<string, unknown>
    const names = Object.keys(left)
    if (names.length !== Object.keys(right).length) return false
    for (const name of names)
      if (!Object.hasOwn(right, name) || !this.sameMember(left[name], right[name])) return false
    return true
  }

  private sameMember(a: unknown, b: unknown): boolean {
    if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return a === b
    return this.classes.get(a) === this.classes.get(b)
  }

  /** A container's text key from its members (for an overflowing bucket only). */
  private containerKey(container: object): string {
    const part = (member: unknown): string =>
      typeof member === 'string'
        ? `s${member.length}:${member}`
        : typeof member === 'object' && member !== null
          ? `#${this.classOf(member).id}`
          : `${typeof member}:${member === 0 ? 0 : String(member)}`
    if (Array.isArray(container)) {
      let key = '['
      for (const member of container) key += `${part(member)},`
      return key
    }
    const record = container as Record<string, unknown>
    let key = '{'
    for (const name of Object.keys(record).sort()) key += `${name.length}:${name}${part(record[name])},`
    return key
  }

  /** The tokens of a schema's `enum` / `const` containers, read once per validation. */
  tokensOf(containers: readonly unknown[]): Set<unknown> {
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

import type { Nfa } from './pattern-nfa'

/**
 * A yes/no search of a pattern's NFA as a lazily built DFA over code points (RE2's approach):
 * each DFA state is the set of NFA states live after a prefix, built the first time a step needs
 * it and cached per character class. Every step is a table read once warm, so a 1 MB string
 * costs about one pass of `charCodeAt`; a cold step costs the NFA's size, so the worst case is
 * still linear in the input. When the cache outgrows its bound it is dropped and rebuilt from
 * the current state (as RE2 does), which keeps memory bounded whatever the pattern.
 */

/**
 * Most table entries (states × character classes) kept before the cache is dropped: 256 KB a
 * pattern at most, thousands of states for a pattern of a few dozen classes.
 */
const MAX_ENTRIES = 1 << 16

interface DfaState {
  /** Sorted NFA state ids (char, match and end states). */
  readonly nfa: Int32Array
  /** Whether the input may end here: unknown (-1), no (0), yes (1). */
  atEnd: number
}

export class LazyDfa {
  private readonly boundaries: Int32Array
  private readonly ascii = new Int32Array(128)
  private readonly classes: number
  private readonly maxStates: number
  private states: DfaState[] = []
  private index = new Map<string, number>()
  /** Next state per (state, character class), flat: `trans[state * classes + cls]`, -1 unknown. */
  private trans = new Int32Array(0)
  /** 1 where the state contains a match. */
  private accepting = new Uint8Array(0)
  private readonly marks: Int32Array
  private generation = 0
  /** Bumped whenever the cache is dropped (old state indexes mean nothing after it). */
  private epoch = 0

  constructor(private readonly nfa: Nfa) {
    const points = new Set<number>([0])
    for (const state of nfa.states) {
      if (state.kind !== 'char') continue
      for (const [from, to] of state.ranges) {
        points.add(from)
        if (to < 0x10ffff) points.add(to + 1)
      }
    }
    this.boundaries = Int32Array.from([...points].sort((a, b) => a - b))
    this.classes = this.boundaries.length
    for (let c = 0; c < 128; c++) this.ascii[c] = this.search(c)
    this.maxStates = Math.max(16, Math.floor(MAX_ENTRIES / this.classes))
    this.marks = new Int32Array(nfa.states.length)
  }

  /** The class of code point `c`: the last boundary ≤ c. */
  private search(c: number): number {
    const b = this.boundaries
    let low = 0
    let high = b.length - 1
    while (low < high) {
      const mid = (low + high + 1) >> 1
      if (b[mid]! <= c) low = mid
      else high = mid - 1
    }
    return low
  }

  /** Epsilon closure of `seeds`: the char, match and (unless `atEnd`) end states reached. */
  private closure(seeds: number[], atStart: boolean, atEnd: boolean): number[] {
    const generation = ++this.generation
    const out: number[] = []
    const stack = seeds
    while (stack.length > 0) {
      const id = stack.pop()!
      if (id < 0 || this.marks[id] === generation) continue
      this.marks[id] = generation
      const state = this.nfa.states[id]!
      switch (state.kind) {
        case 'split':
          stack.push(state.alt, state.next)
          break
        case 'begin':
          if (atStart) stack.push(state.next)
          break
        case 'end':
          if (atEnd) stack.push(state.next)
          else out.push(id)
          break
        default:
          out.push(id)
      }
    }
    return out.sort((a, b) => a - b)
  }

  private stateFor(ids: number[]): number {
    const key = ids.join(',')
    const known = this.index.get(key)
    if (known !== undefined) return known
    if (this.states.length >= this.maxStates) {
      this.states = []
      this.index = new Map()
      this.epoch++
    }
    const id = this.states.length
    this.states.push({ nfa: Int32Array.from(ids), atEnd: -1 })
    this.index.set(key, id)
    if (id >= this.capacity || this.epoch !== this.sizedFor) {
      // Grow by doubling (or start afresh after a drop), keeping what is still valid.
      const keep = this.epoch === this.sizedFor
      const capacity = Math.max(id + 1, Math.min(2 * this.capacity, this.maxStates), 4)
      const trans = new Int32Array(capacity * this.classes).fill(-1)
      const accepting = new Uint8Array(capacity)
      if (keep) {
        trans.set(this.trans)
        accepting.set(this.accepting)
      }
      this.trans = trans
      this.accepting = accepting
      this.capacity = capacity
      this.sizedFor = this.epoch
    }
    this.accepting[id] = ids.some((n) => this.nfa.states[n]!.kind === 'match') ? 1 : 0
    return id
  }

  /** States the tables have room for, and the cache generation they were sized in. */
  private capacity = 0
  private sizedFor = 0

  /** The state after reading a character of class `cls` in state `from` (a match may start next). */
  private step(from: number, cls: number): number {
    const c = this.boundaries[cls]!
    const seeds: number[] = [this.nfa.start]
    for (const id of this.states[from]!.nfa) {
      const state = this.nfa.states[id]!
      if (state.kind !== 'char') continue
      for (const [low, high] of state.ranges) {
        if (c < low) break
        if (c <= high) {
          seeds.push(state.next)
          break
        }
      }
    }
    const epoch = this.epoch
    const target = this.stateFor(this.closure(seeds, false, false))
    // A dropped cache leaves `from` outside it: record the edge only while both are in it.
    if (this.epoch === epoch) this.trans[from * this.classes + cls] = target
    return target
  }

  private endsHere(id: number, atStart: boolean): boolean {
    const state = this.states[id]!
    if (!atStart && state.atEnd >= 0) return state.atEnd === 1
    const seeds: number[] = []
    for (const n of state.nfa) if (this.nfa.states[n]!.kind === 'end') seeds.push(n)
    const ends = this.closure(seeds, atStart, true).some((n) => this.nfa.states[n]!.kind === 'match')
    if (!atStart) state.atEnd = ends ? 1 : 0
    return ends
  }

  /** Whether `text` contains a match. */
  test(text: string): boolean {
    const n = text.length
    const classes = this.classes
    const ascii = this.ascii
    let current = this.stateFor(this.closure([this.nfa.start], true, false))
    // Locals, re-read only after a cold step (which may grow or drop the tables).
    let trans = this.trans
    let accepting = this.accepting
    if (accepting[current] === 1) return true
    for (let i = 0; i < n; i++) {
      let c = text.charCodeAt(i)
      let cls: number
      if (c < 128) cls = ascii[c]!
      else {
        if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
          const low = text.charCodeAt(i + 1)
          if (low >= 0xdc00 && low <= 0xdfff) {
            c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00)
            i++
          }
        }
        cls = this.search(c)
      }
      let next = trans[current * classes + cls]!
      if (next < 0) {
        next = this.step(current, cls)
        trans = this.trans
        accepting = this.accepting
      }
      current = next
      if (accepting[current] === 1) return true
    }
    return this.endsHere(current, n === 0)
  }
}

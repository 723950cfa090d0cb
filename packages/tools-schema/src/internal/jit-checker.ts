import {
  type Checker,
  type FastCheck,
  KIND_ANY,
  KIND_ARRAY,
  KIND_BOOLEAN,
  KIND_INTEGER,
  KIND_NULL,
  KIND_NUMBER,
  KIND_OBJECT,
  KIND_ONE_OF,
  KIND_STRING,
} from './checker'
import {
  checkExtraMember,
  checkJson,
  containerMessage,
  inlineMessage,
  oneOfMessage,
  reportAt,
  trialSink,
} from './sink'

/** Subtrees deeper or larger than this stay with the explicit-stack interpreter. */
const MAX_DEPTH = 12
const MAX_NODES = 800
/** Enums up to this size compile to `===` chains; larger ones use a Set. */
const MAX_INLINE_ENUM = 8

const TOO_BIG = Symbol('too-big')

let enabled = true

/** Test hook: turn code generation off (validation then runs fully in the interpreter). */
export function setFastChecksEnabled(flag: boolean): void {
  enabled = flag
}

class Generator {
  readonly constants: unknown[] = []
  private nodes = 0
  private names = 0

  constant(value: unknown): string {
    this.constants.push(value)
    return `K[${this.constants.length - 1}]`
  }

  name(prefix: string): string {
    return `${prefix}${this.names++}`
  }

  /** A JS expression that is true exactly when the inline checker accepts `v`. */
  private validWhen(checker: Checker, v: string): string {
    const parts: string[] = []
    switch (checker.kind) {
      case KIND_STRING:
        parts.push(`typeof ${v} === "string"`)
        break
      case KIND_NUMBER:
        parts.push(`typeof ${v} === "number" && ${v} - ${v} === 0`)
        break
      case KIND_INTEGER:
        parts.push(`Number.isInteger(${v})`)
        break
      case KIND_BOOLEAN:
        parts.push(`typeof ${v} === "boolean"`)
        break
      case KIND_NULL:
        parts.push(`${v} === null`)
        break
    }
    const set = checker.enumSet
    if (set !== undefined) {
      if (set.size <= MAX_INLINE_ENUM) {
        parts.push(`(${[...set].map((member) => `${v} === ${JSON.stringify(member)}`).join(' || ')})`)
      } else {
        parts.push(`${this.constant(set)}.has(${v})`)
      }
    }
    if (checker.hasConst) parts.push(`${v} === ${JSON.stringify(checker.constValue)}`)
    return parts.length === 0 ? 'true' : parts.join(' && ')
  }

  private inline(checker: Checker, v: string, segs: string, sink: string): string {
    const m = this.name('m')
    return (
      `if (!(${this.validWhen(checker, v)})) { const ${m} = IM(${this.constant(checker)}, ${v}); ` +
      `if (${m} !== undefined) RA(${sink}, p, [${segs}], ${m}); }\n`
    )
  }

  /** Code validating `v` (a local) against `checker`, reporting at `p` + `segs` into `sink`. */
  gen(checker: Checker, v: string, segs: string, sink: string, depth: number): string {
    if (++this.nodes > MAX_NODES || depth > MAX_DEPTH) throw TOO_BIG
    switch (checker.kind) {
      case KIND_OBJECT:
        return this.object(checker, v, segs, sink, depth)
      case KIND_ARRAY: {
        const head = `if (!Array.isArray(${v})) RA(${sink}, p, [${segs}], CM("array", ${v}));\n`
        if (checker.items === undefined) return `${head}else CJ(${sink}, p, [${segs}], ${v});\n`
        const i = this.name('i')
        const x = this.name('x')
        const inner = checker.items.inline
          ? this.inline(checker.items, x, join(segs, i), sink)
          : this.gen(checker.items, x, join(segs, i), sink, depth + 1)
        return `${head}else for (let ${i} = 0; ${i} < ${v}.length; ${i}++) { const ${x} = ${v}[${i}];\n${inner}}\n`
      }
      case KIND_ONE_OF: {
        const trials: string[] = []
        let code = '{\n'
        for (const branch of checker.branches) {
          const t = this.name('t')
          trials.push(t)
          code += `const ${t} = TS();\n`
          code += branch.inline ? this.inline(branch, v, segs, t) : this.gen(branch, v, segs, t, depth + 1)
        }
        const m = this.name('m')
        return `${code}const ${m} = OF([${trials.join(', ')}]); if (${m} !== undefined) RA(${sink}, p, [${segs}], ${m});\n}\n`
      }
      case KIND_ANY:
        return `CJ(${sink}, p, [${segs}], ${v});\n`
      default:
        return this.inline(checker, v, segs, sink)
    }
  }

  private object(checker: Checker, v: string, segs: string, sink: string, depth: number): string {
    // Plain objects only (Object or null prototype; an array's prototype is neither).
    let code =
      `if (typeof ${v} !== "object" || ${v} === null || ((PR = GP(${v})) !== OP && PR !== null)) ` +
      `RA(${sink}, p, [${segs}], CM("object", ${v}));\nelse {\n`
    const deferred: string[] = []
    checker.keys.forEach((key, index) => {
      const child = checker.props[index]!
      const quoted = JSON.stringify(key)
      const a = this.name('a')
      const h = this.name('h')
      const absent = checker.shadowed[index]
        ? `!H.call(${v}, ${quoted})`
        : `${a} === undefined && !H.call(${v}, ${quoted})`
      const missing = checker.required[index]
        ? `RA(${sink}, p, [${segs}], ${JSON.stringify(`missing required property ${quoted}`)});`
        : ''
      code += `const ${a} = ${v}[${quoted}]; let ${h} = true;\n`
      code += `if (${absent}) { ${h} = false; ${missing} }\n`
      if (child.inline) code += `else ${this.inline(child, a, join(segs, quoted), sink)}`
      else deferred.push(`if (${h}) {\n${this.gen(child, a, join(segs, quoted), sink, depth + 1)}}\n`)
    })
    const k = this.name('k')
    const known =
      checker.keys.length === 0
        ? 'false'
        : checker.keys.length <= MAX_INLINE_ENUM
          ? checker.keys.map((key) => `${k} === ${JSON.stringify(key)}`).join(' || ')
          : `${this.constant(checker.propMap)}.has(${k})`
    // Closed: an undeclared key is a violation. Open: its member must still be JSON.
    const undeclared = checker.closed
      ? `RA(${sink}, p, [${join(segs, k)}], "unexpected property " + JSON.stringify(${k}))`
      : `XM(${sink}, p, [${join(segs, k)}], ${v}, ${k})`
    code += `for (const ${k} in ${v}) { if (${known}) continue; if (H.call(${v}, ${k})) ${undeclared}; }\n`
    return `${code}${deferred.join('')}}\n`
  }
}

function join(segs: string, segment: string): string {
  return segs.length === 0 ? segment : `${segs}, ${segment}`
}

/**
 * Generates a specialised validator for a bounded subtree (depth ≤ 12, ≤ 800 nodes), or returns
 * null when the subtree is too big or code generation is unavailable (e.g. CSP forbids
 * `new Function`). The generated code is straight-line loops: no recursion, constant stack use.
 */
export function compileFastCheck(root: Checker): FastCheck | null {
  if (!enabled || root.height > MAX_DEPTH || root.size > MAX_NODES) return null
  const generator = new Generator()
  let body: string
  try {
    body = generator.gen(root, 'v', '', 's', 0)
  } catch (error) {
    if (error === TOO_BIG) return null
    throw error
  }
  try {
    const factory = new Function(
      'K',
      'RA',
      'IM',
      'CM',
      'OF',
      'TS',
      'H',
      'CJ',
      'XM',
      'GP',
      'OP',
      `return function fastCheck(v, p, s) {\nlet PR;\n${body}}`,
    )
    return factory(
      generator.constants,
      reportAt,
      inlineMessage,
      containerMessage,
      oneOfMessage,
      trialSink,
      Object.prototype.hasOwnProperty,
      checkJson,
      checkExtraMember,
      Object.getPrototypeOf,
      Object.prototype,
    ) as FastCheck
  } catch {
    enabled = false
    return null
  }
}

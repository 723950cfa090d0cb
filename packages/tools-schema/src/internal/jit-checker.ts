import { functionNodes } from './jit-function-nodes'
import { memoFlags } from './jit-memo'
import { JIT_RUNTIME } from './jit-runtime'
import {
  demandsScalar,
  isJsonObject,
  prototypeOf,
  readMember,
  readUndeclared,
  typeCondition,
} from './jit-snippets'
import type { LinearPattern } from './linear-pattern'
import {
  type SchemaNode,
  TYPE_ARRAY,
  TYPE_INTEGER,
  TYPE_NUMBER,
  TYPE_OBJECT,
  TYPE_STRING,
} from './schema-node'
import { simplePatternFunction } from './simple-pattern'
import { findDiscriminator, haveDisjointTypes } from './union-dispatch'

/**
 * The fast path: a generated boolean predicate, exact for JSON values and false for anything
 * else, so `true` means "no violations" and the explicit-stack interpreter only runs (to explain)
 * when it says `false`. Small subschemas become straight-line code inlined into their parent;
 * `$ref` targets and shared nodes become functions. A call deeper than MAX_CALL_DEPTH throws
 * BAIL and the caller falls back to the interpreter, so the stack stays bounded.
 */
export type Predicate = (value: unknown) => boolean

/** Inline nesting beyond this starts a new function (keeps generated blocks shallow). */
const MAX_INLINE_DEPTH = 12
const MAX_CALL_DEPTH = 200
const MAX_INLINE_ENUM = 8
const NUMERIC = TYPE_NUMBER | TYPE_INTEGER

let enabled = true

/** Test hook: turn code generation off (validation then runs fully in the interpreter). */
export function setFastChecksEnabled(flag: boolean): void {
  enabled = flag
}

class Generator {
  readonly constants: unknown[] = []
  readonly functions = new Map<SchemaNode, string>()
  readonly bodies: string[] = []
  private readonly pending: SchemaNode[] = []
  private readonly patterns = new Map<string, string>()
  private names = 0

  /** Names of the per-validation memo maps (see jit-memo), cleared after each validation. */
  readonly memos: string[] = []

  constructor(
    private readonly functionNodes: ReadonlySet<SchemaNode>,
    /** Nodes whose function remembers its answers (see jit-memo); none when the schema needs no memo. */
    private readonly memoized: (node: SchemaNode) => boolean,
  ) {}

  /** A constant bound once outside the checks (`K3`), so the hot code reads a closure slot. */
  constant(value: unknown): string {
    this.constants.push(value)
    return `K${this.constants.length - 1}`
  }

  name(prefix: string): string {
    return `${prefix}${this.names++}`
  }

  /** An expression testing string `x` against `regex`: a char-code loop for simple shapes. */
  matches(regex: LinearPattern, x: string): string {
    let name = this.patterns.get(regex.source)
    if (name === undefined) {
      const simple = regex.simple
      if (simple === undefined) return `${this.constant(regex)}.test(${x})`
      name = this.name('P')
      this.patterns.set(regex.source, name)
      this.bodies.push(simplePatternFunction(name, simple))
    }
    return `${name}(${x})`
  }

  functionFor(node: SchemaNode): string {
    let name = this.functions.get(node)
    if (name === undefined) {
      name = this.name('F')
      this.functions.set(node, name)
      this.pending.push(node)
    }
    return name
  }

  generateAll(): void {
    while (this.pending.length > 0) {
      const node = this.pending.pop()!
      const name = this.functions.get(node)!
      const body = this.gen(node, 'v', 'f', 0)
      if (!this.memoized(node)) {
        this.bodies.push(
          `function ${name}(v, d) { if (d > ${MAX_CALL_DEPTH}) throw B;\nf: {\n${body}return true;\n}\nreturn false;\n}`,
        )
        continue
      }
      const memo = `M${name}`
      this.memos.push(memo)
      this.bodies.push(
        `function ${name}(v, d) { if (d > ${MAX_CALL_DEPTH}) throw B;\nif (typeof v !== "object" || v === null) return ${name}b(v, d);\nlet r = ${memo}.get(v);\nif (r === undefined) { r = ${name}b(v, d); ${memo}.set(v, r); }\nreturn r;\n}`,
        `function ${name}b(v, d) {\nf: {\n${body}return true;\n}\nreturn false;\n}`,
      )
    }
  }

  /** Code checking `value` (an expression already bound to a local) against `node`. */
  child(node: SchemaNode, value: string, fail: string, depth: number): string {
    if (this.functionNodes.has(node) || depth > MAX_INLINE_DEPTH)
      return `if (!${this.functionFor(node)}(${value}, d + 1)) break ${fail};\n`
    return this.gen(node, value, fail, depth + 1)
  }

  /** Statements that `break fail` exactly when `v` is not valid against `node`. */
  gen(node: SchemaNode, v: string, fail: string, depth: number): string {
    if (node.never) return `break ${fail};\n`
    // An applicator that must pass (ref, allOf, anyOf, oneOf) already proves `v` is JSON.
    const delegated = node.ref !== undefined || node.allOf.length + node.anyOf.length + node.oneOf.length > 0
    let code = node.types !== 0 ? `if (!(${typeCondition(node.types, v)})) break ${fail};\n` : ''
    if (node.enumSet !== undefined)
      code += `if (!(${this.member(node.enumValues!, node.enumSet, v)})) break ${fail};\n`
    if (node.constSet !== undefined)
      code += `if (!(${this.member([node.constValue], node.constSet, v)})) break ${fail};\n`
    code += this.scalars(node, v, fail)
    code += this.applicators(node, v, fail, depth)
    // A scalar enum/const already proved `v` a JSON scalar: container keywords cannot apply.
    if (demandsScalar(node)) return code
    const arrayCode = this.array(node, v, fail, depth, delegated)
    const objectCode = this.object(node, v, fail, depth, delegated)
    if (node.types === TYPE_ARRAY) return code + arrayCode
    if (node.types === TYPE_OBJECT) return code + objectCode
    const branches: string[] = []
    if (arrayCode !== '' && (node.types === 0 || node.types & TYPE_ARRAY))
      branches.push(`if (Array.isArray(${v})) {\n${arrayCode}}`)
    if (objectCode !== '' && (node.types === 0 || node.types & TYPE_OBJECT))
      branches.push(
        `if (typeof ${v} === "object" && ${v} !== null && !Array.isArray(${v})) {\n${objectCode}}`,
      )
    if (node.types === 0 && !delegated)
      branches.push(
        `if (!(typeof ${v} === "object" || typeof ${v} === "string" || typeof ${v} === "boolean" || (typeof ${v} === "number" && ${v} - ${v} === 0))) break ${fail};`,
      )
    return branches.length === 0 ? code : `${code}${branches.join(' else ')}\n`
  }

  private member(values: readonly unknown[], set: unknown, v: string): string {
    const scalar = values.every((value) => typeof value !== 'object' || value === null)
    if (scalar && values.length <= MAX_INLINE_ENUM)
      return values.length === 0
        ? 'false'
        : values.map((value) => `${v} === ${JSON.stringify(value)}`).join(' || ')
    return `${this.constant(set)}.has(${v})`
  }

  private scalars(node: SchemaNode, v: string, fail: string): string {
    let numeric = ''
    const bound = (key: 'minimum' | 'maximum' | 'exclusiveMinimum' | 'exclusiveMaximum', op: string) => {
      const limit = node[key]
      if (limit !== undefined) numeric += `if (${v} ${op} ${limit}) break ${fail};\n`
    }
    bound('minimum', '<')
    bound('maximum', '>')
    bound('exclusiveMinimum', '<=')
    bound('exclusiveMaximum', '>=')
    if (node.multipleOf !== undefined) numeric += `if (!MO(${v}, ${node.multipleOf})) break ${fail};\n`
    let text = ''
    if (node.minLength !== undefined)
      text += `if (${v}.length < ${node.minLength} || (${v}.length < ${2 * node.minLength} && CP(${v}) < ${node.minLength})) break ${fail};\n`
    if (node.maxLength !== undefined)
      text += `if (${v}.length > ${node.maxLength} && CP(${v}) > ${node.maxLength}) break ${fail};\n`
    if (node.pattern !== undefined) text += `if (!${this.matches(node.pattern, v)}) break ${fail};\n`
    if (node.format !== undefined) text += `if (!${this.constant(node.format)}(${v})) break ${fail};\n`
    let code = ''
    if (numeric !== '')
      code +=
        (node.types & ~NUMERIC) === 0 && node.types !== 0
          ? numeric
          : `if (typeof ${v} === "number") {\n${numeric}}\n`
    if (text !== '') code += node.types === TYPE_STRING ? text : `if (typeof ${v} === "string") {\n${text}}\n`
    return code
  }

  private applicators(node: SchemaNode, v: string, fail: string, depth: number): string {
    let code = ''
    if (node.ref !== undefined) code += this.child(node.ref, v, fail, depth)
    for (const branch of node.allOf) code += this.child(branch, v, fail, depth)
    if (node.anyOf.length > 0) code += this.union(node.anyOf, false, v, fail, depth)
    if (node.oneOf.length > 0) code += this.union(node.oneOf, true, v, fail, depth)
    if (node.not !== undefined) {
      const b = this.name('b')
      code += `${b}: {\n${this.child(node.not, v, b, depth)}break ${fail};\n}\n`
    }
    if (node.ifNode !== undefined && (node.thenNode !== undefined || node.elseNode !== undefined)) {
      const b = this.name('b')
      const c = this.name('c')
      code += `{ let ${c} = false;\n${b}: {\n${this.child(node.ifNode, v, b, depth)}${c} = true;\n}\n`
      if (node.thenNode !== undefined) code += `if (${c}) {\n${this.child(node.thenNode, v, fail, depth)}}\n`
      if (node.elseNode !== undefined) code += `if (!${c}) {\n${this.child(node.elseNode, v, fail, depth)}}\n`
      code += '}\n'
    }
    return code
  }

  /**
   * `anyOf` (`exactlyOne` false) or `oneOf`. A discriminated union runs only the branch its tag
   * names; branches of disjoint types cannot both match, so such a `oneOf` stops at the first
   * match like `anyOf`; any other `oneOf` counts matches and fails at the second.
   */
  private union(branches: SchemaNode[], exactlyOne: boolean, v: string, fail: string, depth: number): string {
    const tag = findDiscriminator(branches)
    if (tag !== undefined) {
      const t = this.name('t')
      let code = `const ${t} = typeof ${v} === "object" && ${v} !== null && ${isJsonObject(v)} ? ${readMember(v, tag.key)} : undefined;\nswitch (${t}) {\n`
      branches.forEach((branch, index) => {
        code += tag.values[index]!.map((value) => `case ${JSON.stringify(value)}:`).join(' ')
        code += ` {\n${this.child(branch, v, fail, depth)}break;\n}\n`
      })
      return `{\n${code}default: break ${fail};\n}\n}\n`
    }
    if (!exactlyOne || haveDisjointTypes(branches)) {
      const ok = this.name('ok')
      let code = `${ok}: {\n`
      for (const branch of branches) {
        const b = this.name('b')
        code += `${b}: {\n${this.child(branch, v, b, depth)}break ${ok};\n}\n`
      }
      return `${code}break ${fail};\n}\n`
    }
    const n = this.name('n')
    let code = `{ let ${n} = 0;\n`
    for (const branch of branches) {
      const b = this.name('b')
      code += `${b}: {\n${this.child(branch, v, b, depth)}if (++${n} > 1) break ${fail};\n}\n`
    }
    return `${code}if (${n} === 0) break ${fail};\n}\n`
  }

  private array(node: SchemaNode, v: string, fail: string, depth: number, delegated: boolean): string {
    if (!node.arrayKeywords) return delegated ? '' : `if (!IJ(${v})) break ${fail};\n`
    let code = delegated ? '' : `if (${prototypeOf(v)} !== AP) break ${fail};\n`
    if (node.minItems !== undefined) code += `if (${v}.length < ${node.minItems}) break ${fail};\n`
    if (node.maxItems !== undefined) code += `if (${v}.length > ${node.maxItems}) break ${fail};\n`
    if (node.uniqueItems) code += `if (!UQ(${v})) break ${fail};\n`
    node.prefixItems.forEach((item, j) => {
      const x = this.name('x')
      code += `if (${v}.length > ${j}) { const ${x} = ${v}[${j}];\n${this.child(item, x, fail, depth)}}\n`
    })
    const i = this.name('i')
    const x = this.name('x')
    const start = node.prefixItems.length
    if (node.items !== undefined) {
      code += `for (let ${i} = ${start}; ${i} < ${v}.length; ${i}++) { const ${x} = ${v}[${i}];\n${this.child(node.items, x, fail, depth)}}\n`
    } else if (!delegated) {
      code += `for (let ${i} = ${start}; ${i} < ${v}.length; ${i}++) if (!IJ(${v}[${i}])) break ${fail};\n`
    }
    if (node.contains !== undefined) {
      const c = this.name('c')
      const b = this.name('b')
      const y = this.name('x')
      code += `{ let ${c} = 0; for (let ${i} = 0; ${i} < ${v}.length; ${i}++) { const ${y} = ${v}[${i}];\n${b}: {\n${this.child(node.contains, y, b, depth)}${c}++;\n} }\n`
      code += `if (${c} < ${node.minContains}) break ${fail};\n`
      if (node.maxContains !== undefined) code += `if (${c} > ${node.maxContains}) break ${fail};\n`
      code += '}\n'
    }
    return code
  }

  private object(node: SchemaNode, v: string, fail: string, depth: number, delegated: boolean): string {
    if (!node.objectKeywords) return delegated ? '' : `if (!IJ(${v})) break ${fail};\n`
    let code = delegated ? '' : `if (!${isJsonObject(v)}) break ${fail};\n`
    if (node.minProperties !== undefined || node.maxProperties !== undefined) {
      const n = this.name('n')
      code += `{ const ${n} = NK(${v});\n`
      if (node.minProperties !== undefined) code += `if (${n} < ${node.minProperties}) break ${fail};\n`
      if (node.maxProperties !== undefined) code += `if (${n} > ${node.maxProperties}) break ${fail};\n`
      code += '}\n'
    }
    const required = new Set(node.required)
    node.propertyKeys.forEach((key, index) => {
      const quoted = JSON.stringify(key)
      const a = this.name('a')
      code += `{ const ${a} = ${readMember(v, key)};\nif (${a} === undefined) { if (${required.has(key) ? 'true' : `H.call(${v}, ${quoted})`}) break ${fail}; }\n`
      code += `else {\n${this.child(node.propertyNodes[index]!, a, fail, depth)}}\n}\n`
      required.delete(key)
    })
    for (const key of required) code += `if (!H.call(${v}, ${JSON.stringify(key)})) break ${fail};\n`
    for (const { key, names } of node.dependentRequired) {
      const checks = names.map((name) => `!H.call(${v}, ${JSON.stringify(name)})`).join(' || ')
      if (checks !== '') code += `if (H.call(${v}, ${JSON.stringify(key)}) && (${checks})) break ${fail};\n`
    }
    for (const { key, node: child } of node.dependentSchemas) {
      code += `if (H.call(${v}, ${JSON.stringify(key)})) {\n${this.child(child, v, fail, depth)}}\n`
    }
    const needLoop =
      node.patternProperties.length > 0 ||
      node.additionalProperties !== undefined ||
      node.propertyNames !== undefined ||
      !delegated
    if (!needLoop) return code
    const k = this.name('k')
    const covered = this.name('u')
    let loop = `for (const ${k} in ${v}) {\n`
    if (node.propertyNames !== undefined) loop += this.child(node.propertyNames, k, fail, depth)
    const keys = node.propertyKeys
    const known =
      keys.length === 0
        ? 'false'
        : keys.length <= MAX_INLINE_ENUM
          ? keys.map((key) => `${k} === ${JSON.stringify(key)}`).join(' || ')
          : `${this.constant(node.properties)}.has(${k})`
    loop += `let ${covered} = ${known};\n`
    for (const entry of node.patternProperties) {
      const m = this.name('m')
      loop += `if (${this.matches(entry.regex, k)}) { ${covered} = true; ${readUndeclared(m, v, k, fail)}${this.child(entry.node, m, fail, depth)}}\n`
    }
    if (node.additionalProperties !== undefined) {
      const m = this.name('m')
      loop += `if (!${covered}) { ${readUndeclared(m, v, k, fail)}${this.child(node.additionalProperties, m, fail, depth)}}\n`
    } else if (!delegated) {
      const m = this.name('m')
      loop += `if (!${covered}) { ${readUndeclared(m, v, k, fail)}if (!IJ(${m})) break ${fail}; }\n`
    }
    return `${code}${loop}}\n`
  }
}

/** Generates the predicate for a compiled schema, or null (too big, or `new Function` refused). */
export function compilePredicate(root: SchemaNode): Predicate | null {
  if (!enabled) return null
  const nodes = functionNodes(root)
  if (nodes === undefined) return null
  const flags = memoFlags(root)
  const generator = new Generator(nodes, (node) => flags.memo && (node !== root || flags.rootReferenced))
  const entry = generator.functionFor(root)
  generator.generateAll()
  // Constants become closure slots of the factory (`const K3 = K[3]`), read without an index.
  let constants = generator.constants.map((_, i) => `const K${i} = K[${i}];\n`).join('')
  let result = entry
  if (generator.memos.length > 0) {
    constants += generator.memos.map((memo) => `const ${memo} = new Map();\n`).join('')
    const clear = generator.memos.map((memo) => `${memo}.clear();`).join(' ')
    result = `(v, d) => { try { return ${entry}(v, d); } finally { ${clear} } }`
  }
  const names = Object.keys(JIT_RUNTIME)
  try {
    const factory = new Function(
      'K',
      ...names,
      `${constants}${generator.bodies.join('\n')}\nreturn ${result};`,
    )
    const check = factory(generator.constants, ...names.map((name) => JIT_RUNTIME[name])) as (
      value: unknown,
      depth: number,
    ) => boolean
    return (value) => check(value, 0)
  } catch {
    return null
  }
}

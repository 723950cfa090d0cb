import { UnsupportedJsonSchemaError } from '../errors'
import { type Dialect, idKeyword, ignoredByDialect, isPre2019 } from './dialect'
import { FORMAT_CHECKS } from './formats'
import { JsonValueSet } from './json-equal'
import { compileLinearPattern, type LinearPattern, PatternRefusal } from './linear-pattern'
import { addNullMember } from './nullable'
import { joinPath } from './path'
import { type SchemaNode, TYPE_BITS } from './schema-node'

/** What the keyword reader needs from the compiler. */
export interface ReadContext {
  readonly dialect: Dialect
  readonly assertFormats: boolean
  /** The node for a subschema (compiled later, iteratively). */
  child(raw: unknown, path: string): SchemaNode
  /** Records a `$ref` of `node`, resolved once the whole document has been read. */
  ref(node: SchemaNode, ref: string, path: string): void
  /** Records a plain-name anchor for `raw`. */
  anchor(name: string, raw: object, path: string): void
}

type Raw = Record<string, unknown>

/** Node fields named differently from their keyword (a class member may not be called `then`). */
const FIELD: Readonly<Record<string, 'ifNode' | 'thenNode' | 'elseNode'>> = {
  if: 'ifNode',
  // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword
  then: 'thenNode',
  else: 'elseNode',
}

export function fail(path: string, detail: string): never {
  throw new UnsupportedJsonSchemaError(path, detail)
}

const ANCHOR = /^[A-Za-z_][-A-Za-z0-9._]*$/

/**
 * Compiles `source` (the dialect's ECMA-262 regex, `u` flag) for the linear-time engine, or
 * fails at `path`: invalid syntax, or a construct only a backtracking engine can run
 * (backreferences, lookaround) — refused rather than run where it could stall the host.
 */
export function compilePattern(source: string, path: string): LinearPattern {
  try {
    new RegExp(source, 'u')
  } catch (error) {
    return fail(path, `invalid pattern ${JSON.stringify(source)}: ${(error as Error).message}`)
  }
  try {
    return compileLinearPattern(source)
  } catch (error) {
    if (!(error instanceof PatternRefusal)) throw error
    return fail(
      path,
      `pattern ${JSON.stringify(source)} is refused: ${error.message} (patterns run in a linear-time engine)`,
    )
  }
}

function isSchema(value: unknown): boolean {
  return typeof value === 'boolean' || (typeof value === 'object' && value !== null && !Array.isArray(value))
}

function number(raw: Raw, key: string, path: string, kind: 'any' | 'count' | 'positive'): number | undefined {
  const value = raw[key]
  if (value === undefined) return undefined
  const where = joinPath(path, key)
  // A boolean exclusive bound is the draft-04 / OpenAPI 3.0 modifier (see readExclusiveFlags).
  if (typeof value === 'boolean' && key.startsWith('exclusive')) return undefined
  if (typeof value !== 'number') fail(where, `${key} must be a number`)
  if (kind === 'count' && !(Number.isInteger(value) && value >= 0))
    fail(where, `${key} must be a non-negative integer`)
  if (kind === 'positive' && !(value > 0)) fail(where, `${key} must be greater than 0`)
  return value
}

function schemaMap(raw: Raw, key: string, path: string): [string, unknown][] {
  const value = raw[key]
  if (value === undefined) return []
  const where = joinPath(path, key)
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail(where, `${key} must be an object`)
  const entries = Object.entries(value)
  for (const [name, member] of entries) {
    if (!isSchema(member)) fail(joinPath(where, name), 'a schema must be an object or a boolean')
  }
  return entries
}

function schemaList(raw: Raw, key: string, path: string): unknown[] {
  const value = raw[key]
  if (value === undefined) return []
  const where = joinPath(path, key)
  if (!Array.isArray(value) || value.length === 0) fail(where, `${key} must be a non-empty array of schemas`)
  value.forEach((member, i) => {
    if (!isSchema(member)) fail(joinPath(where, i), 'a schema must be an object or a boolean')
  })
  return value
}

function stringList(value: unknown, where: string, what: string): string[] {
  if (!Array.isArray(value)) fail(where, `${what} must be an array of strings`)
  const seen = new Set<string>()
  value.forEach((name, i) => {
    if (typeof name !== 'string') fail(joinPath(where, i), `${what} entries must be strings`)
    if (seen.has(name)) fail(joinPath(where, i), `${what} lists ${JSON.stringify(name)} twice`)
    seen.add(name)
  })
  return value as string[]
}

function readType(node: SchemaNode, value: unknown, where: string): void {
  const names = typeof value === 'string' ? [value] : value
  if (!Array.isArray(names) || (Array.isArray(value) && value.length === 0))
    fail(where, 'type must be a type name or a non-empty array of type names')
  const seen = new Set<string>()
  for (const name of names) {
    if (typeof name !== 'string' || TYPE_BITS[name] === undefined)
      fail(
        where,
        typeof name === 'string' && TYPE_BITS[name.toLowerCase()] !== undefined
          ? `unknown type ${JSON.stringify(name)} (Gemini's upper-case type names: convert the schema with normalizeSchema(schema, { from: 'gemini' }))`
          : `unknown type ${JSON.stringify(name)}`,
      )
    if (seen.has(name)) fail(where, `type lists ${JSON.stringify(name)} twice`)
    seen.add(name)
    node.types |= TYPE_BITS[name]!
  }
  node.typeNames = names as string[]
}

function readAnnotations(raw: Raw, path: string): void {
  for (const key of ['title', 'description', '$comment', '$id', '$schema']) {
    if (raw[key] !== undefined && typeof raw[key] !== 'string')
      fail(joinPath(path, key), `${key} must be a string`)
  }
  for (const key of ['deprecated', 'readOnly', 'writeOnly', 'uniqueItems']) {
    if (raw[key] !== undefined && typeof raw[key] !== 'boolean')
      fail(joinPath(path, key), `${key} must be a boolean`)
  }
  if (raw.examples !== undefined && !Array.isArray(raw.examples))
    fail(joinPath(path, 'examples'), 'examples must be an array')
  if (raw.enum !== undefined && !Array.isArray(raw.enum))
    fail(joinPath(path, 'enum'), 'enum must be an array')
  for (const key of ['unevaluatedProperties', 'unevaluatedItems']) {
    if (raw[key] !== undefined)
      fail(
        joinPath(path, key),
        `${key} is not supported (its result depends on every other applicator; refused rather than ignored)`,
      )
  }
}

/** Reads one schema object's keywords into `node` (the document is known to be JSON). */
export function readKeywords(node: SchemaNode, raw: Raw, path: string, cx: ReadContext): void {
  const known = (key: string) => raw[key] !== undefined && !ignoredByDialect(key, cx.dialect)
  readAnnotations(raw, path)
  for (const key of ['$defs', 'definitions'])
    for (const [name, member] of schemaMap(raw, key, path))
      cx.child(member, joinPath(joinPath(path, key), name))
  if (known('$anchor')) {
    const name = raw.$anchor
    if (typeof name !== 'string' || !ANCHOR.test(name))
      fail(joinPath(path, '$anchor'), '$anchor must be a plain name')
    cx.anchor(name, raw, path)
  }
  const id = raw[idKeyword(cx.dialect)]
  if (isPre2019(cx.dialect) && typeof id === 'string' && id.startsWith('#')) cx.anchor(id.slice(1), raw, path)
  if (raw.$ref !== undefined) {
    if (typeof raw.$ref !== 'string') fail(joinPath(path, '$ref'), '$ref must be a string')
    cx.ref(node, raw.$ref, joinPath(path, '$ref'))
    // Up to draft-07, keywords beside `$ref` are ignored (the standard's rule; lintSchema reports them).
    if (isPre2019(cx.dialect)) return
  }
  if (raw.type !== undefined) readType(node, raw.type, joinPath(path, 'type'))
  if (raw.enum !== undefined) {
    node.enumValues = raw.enum as unknown[]
    node.enumSet = new JsonValueSet(node.enumValues)
  }
  if (raw.nullable === true) addNullMember(node)
  if (known('const')) {
    node.hasConst = true
    node.constValue = raw.const
    node.constSet = new JsonValueSet([raw.const])
  }
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    schemaList(raw, key, path).forEach((member, i) => {
      node[key].push(cx.child(member, joinPath(joinPath(path, key), i)))
    })
  }
  for (const key of [
    'not',
    'if',
    'then',
    'else',
    'contains',
    'propertyNames',
    'additionalProperties',
  ] as const) {
    if (!known(key)) continue
    if (!isSchema(raw[key])) fail(joinPath(path, key), `${key} must be a schema`)
    node[FIELD[key] ?? (key as Exclude<typeof key, 'if' | 'then' | 'else'>)] = cx.child(
      raw[key],
      joinPath(path, key),
    )
  }
  node.minimum = number(raw, 'minimum', path, 'any')
  node.maximum = number(raw, 'maximum', path, 'any')
  node.exclusiveMinimum = number(raw, 'exclusiveMinimum', path, 'any')
  node.exclusiveMaximum = number(raw, 'exclusiveMaximum', path, 'any')
  readExclusiveFlags(node, raw)
  node.multipleOf = number(raw, 'multipleOf', path, 'positive')
  node.minLength = number(raw, 'minLength', path, 'count')
  node.maxLength = number(raw, 'maxLength', path, 'count')
  if (raw.pattern !== undefined) {
    if (typeof raw.pattern !== 'string') fail(joinPath(path, 'pattern'), 'pattern must be a string')
    node.pattern = compilePattern(raw.pattern, joinPath(path, 'pattern'))
  }
  if (raw.format !== undefined) {
    if (typeof raw.format !== 'string') fail(joinPath(path, 'format'), 'format must be a string')
    node.formatName = raw.format
    if (cx.assertFormats) node.format = FORMAT_CHECKS[raw.format]
  }
  readArrayKeywords(node, raw, path, cx, known)
  readObjectKeywords(node, raw, path, cx, known)
}

/**
 * draft-04 / OpenAPI 3.0 boolean `exclusiveMinimum` / `exclusiveMaximum`: `true` makes
 * `minimum` / `maximum` exclusive, `false` changes nothing. From draft-06 on these keywords are
 * numbers, so a boolean has exactly one meaning, in any dialect.
 */
function readExclusiveFlags(node: SchemaNode, raw: Raw): void {
  if (raw.exclusiveMinimum === true && node.minimum !== undefined) {
    node.exclusiveMinimum = node.minimum
    node.minimum = undefined
  }
  if (raw.exclusiveMaximum === true && node.maximum !== undefined) {
    node.exclusiveMaximum = node.maximum
    node.maximum = undefined
  }
}

function readArrayKeywords(
  node: SchemaNode,
  raw: Raw,
  path: string,
  cx: ReadContext,
  known: (key: string) => boolean,
): void {
  const items = raw.items
  if (Array.isArray(items)) {
    // The tuple form of draft-04 to 2019-09. 2020-12 has no array-form `items`, so a document
    // without `$schema` that uses it (pydantic v1's tuples) can only mean this.
    items.forEach((member, i) => {
      if (!isSchema(member))
        fail(joinPath(joinPath(path, 'items'), i), 'a schema must be an object or a boolean')
      node.prefixItems.push(cx.child(member, joinPath(joinPath(path, 'items'), i)))
    })
    if (raw.additionalItems !== undefined) {
      if (!isSchema(raw.additionalItems))
        fail(joinPath(path, 'additionalItems'), 'additionalItems must be a schema')
      node.items = cx.child(raw.additionalItems, joinPath(path, 'additionalItems'))
    }
  } else if (items !== undefined) {
    if (!isSchema(items)) fail(joinPath(path, 'items'), 'items must be a schema')
    node.items = cx.child(items, joinPath(path, 'items'))
  }
  if (known('prefixItems')) {
    if (Array.isArray(items))
      fail(joinPath(path, 'items'), 'array-form items (the draft-07 tuple form) beside prefixItems')
    schemaList(raw, 'prefixItems', path).forEach((member, i) => {
      node.prefixItems.push(cx.child(member, joinPath(joinPath(path, 'prefixItems'), i)))
    })
  }
  node.minItems = number(raw, 'minItems', path, 'count')
  node.maxItems = number(raw, 'maxItems', path, 'count')
  node.uniqueItems = raw.uniqueItems === true
  if (known('minContains')) node.minContains = number(raw, 'minContains', path, 'count')!
  if (known('maxContains')) node.maxContains = number(raw, 'maxContains', path, 'count')
  // minContains/maxContains mean nothing without contains.
  if (node.contains === undefined) {
    node.minContains = 1
    node.maxContains = undefined
  }
  node.arrayKeywords =
    node.prefixItems.length > 0 ||
    node.items !== undefined ||
    node.contains !== undefined ||
    node.minItems !== undefined ||
    node.maxItems !== undefined ||
    node.uniqueItems
}

function readObjectKeywords(
  node: SchemaNode,
  raw: Raw,
  path: string,
  cx: ReadContext,
  known: (key: string) => boolean,
): void {
  const properties = schemaMap(raw, 'properties', path)
  if (properties.length > 0) node.properties = new Map()
  for (const [key, member] of properties) {
    const child = cx.child(member, joinPath(joinPath(path, 'properties'), key))
    node.propertyKeys.push(key)
    node.propertyNodes.push(child)
    node.properties!.set(key, child)
  }
  for (const [source, member] of schemaMap(raw, 'patternProperties', path)) {
    const where = joinPath(joinPath(path, 'patternProperties'), source)
    node.patternProperties.push({
      regex: compilePattern(source, where),
      source,
      node: cx.child(member, where),
    })
  }
  if (raw.required !== undefined)
    node.required = stringList(raw.required, joinPath(path, 'required'), 'required')
  node.minProperties = number(raw, 'minProperties', path, 'count')
  node.maxProperties = number(raw, 'maxProperties', path, 'count')
  const dependent = (key: string, value: unknown, where: string, mixed: boolean) => {
    if (Array.isArray(value))
      node.dependentRequired.push({ key, names: stringList(value, where, 'dependency') })
    else if (isSchema(value)) node.dependentSchemas.push({ key, node: cx.child(value, where) })
    else
      fail(where, mixed ? 'a dependency must be an array of names or a schema' : 'expected an array of names')
  }
  if (known('dependentRequired')) {
    const value = raw.dependentRequired
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      fail(joinPath(path, 'dependentRequired'), 'dependentRequired must be an object')
    for (const [key, names] of Object.entries(value)) {
      if (!Array.isArray(names))
        fail(joinPath(joinPath(path, 'dependentRequired'), key), 'expected an array of names')
      dependent(key, names, joinPath(joinPath(path, 'dependentRequired'), key), false)
    }
  }
  if (known('dependentSchemas')) {
    for (const [key, member] of schemaMap(raw, 'dependentSchemas', path))
      dependent(key, member, joinPath(joinPath(path, 'dependentSchemas'), key), false)
  }
  if (known('dependencies')) {
    const value = raw.dependencies
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      fail(joinPath(path, 'dependencies'), 'dependencies must be an object')
    for (const [key, member] of Object.entries(value))
      dependent(key, member, joinPath(joinPath(path, 'dependencies'), key), true)
  }
  node.objectKeywords =
    node.properties !== undefined ||
    node.patternProperties.length > 0 ||
    node.additionalProperties !== undefined ||
    node.propertyNames !== undefined ||
    node.required.length > 0 ||
    node.minProperties !== undefined ||
    node.maxProperties !== undefined ||
    node.dependentRequired.length > 0 ||
    node.dependentSchemas.length > 0
}

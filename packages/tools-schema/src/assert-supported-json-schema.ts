import { LosslessJsonError, UnsupportedJsonSchemaError } from './errors'
import { describeScalar, isPlainObject } from './internal/describe'
import { joinPath } from './internal/path'
import { snapshotJson } from './snapshot-json'
import type { JsonSchemaNode, ObjectJsonSchema } from './types'

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array'])
const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', 'deprecated'])
const KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'oneOf',
  ...ANNOTATIONS,
])
const OBJECT_ONLY = ['properties', 'required', 'additionalProperties']

type Frame = { readonly node: unknown; readonly path: string } | { readonly exit: object }

function fail(path: string, detail: string): never {
  throw new UnsupportedJsonSchemaError(path, detail)
}

function ownValue(node: object, key: string): unknown {
  return Object.getOwnPropertyDescriptor(node, key)?.value
}

function checkScalarMember(type: unknown, value: unknown, path: string, what: string): void {
  const ok =
    value === null || typeof value === 'string' || typeof value === 'boolean'
      ? type === undefined || (value === null ? type === 'null' : typeof value === type)
      : typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0)
        ? type === undefined || type === 'number' || (type === 'integer' && Number.isInteger(value))
        : false
  if (!ok) {
    fail(
      path,
      `${what} ${describeScalar(value)} is not a ${type === undefined ? 'JSON scalar' : `valid ${type}`}`,
    )
  }
}

function checkAnnotations(node: object, path: string): void {
  for (const key of ['title', 'description']) {
    const value = ownValue(node, key)
    if (value !== undefined && typeof value !== 'string') fail(joinPath(path, key), `${key} must be a string`)
  }
  const deprecated = ownValue(node, 'deprecated')
  if (deprecated !== undefined && typeof deprecated !== 'boolean') {
    fail(joinPath(path, 'deprecated'), 'deprecated must be a boolean')
  }
  for (const key of ['default', 'examples']) {
    if (!Object.hasOwn(node, key)) continue
    const value = ownValue(node, key)
    try {
      snapshotJson(value)
    } catch (error) {
      if (error instanceof LosslessJsonError) {
        fail(joinPath(path, key) + error.path.slice(1), `annotation is not lossless JSON: ${error.message}`)
      }
      throw error
    }
    if (key === 'examples' && !Array.isArray(value)) fail(joinPath(path, key), 'examples must be an array')
  }
}

function denseArray(value: unknown, path: string, what: string): unknown[] {
  if (!Array.isArray(value)) fail(path, `${what} must be an array`)
  for (let i = 0; i < value.length; i++) {
    const descriptor = Object.getOwnPropertyDescriptor(value, i)
    if (descriptor === undefined || !('value' in descriptor)) fail(joinPath(path, i), `${what} must be dense`)
  }
  return value
}

/** Checks one node's own keywords; pushes child nodes. */
function checkNode(node: unknown, path: string, stack: Frame[]): void {
  if (!isPlainObject(node)) fail(path, 'schema node must be a plain object')
  const keys = Reflect.ownKeys(node)
  for (const key of keys) {
    if (typeof key === 'symbol') fail(path, `symbol key ${String(key)} is not supported`)
    const descriptor = Object.getOwnPropertyDescriptor(node, key)!
    if (!('value' in descriptor)) fail(joinPath(path, key), 'accessor properties are not supported')
    if (!descriptor.enumerable) fail(joinPath(path, key), 'non-enumerable keys are not supported')
    if (!KEYWORDS.has(key))
      fail(joinPath(path, key), `keyword "${key}" is outside the supported JSON Schema subset`)
  }
  checkAnnotations(node, path)
  const has = (key: string) => Object.hasOwn(node, key)
  const type = ownValue(node, 'type')
  if (has('type')) {
    if (Array.isArray(type))
      fail(joinPath(path, 'type'), 'type arrays are not supported; use exactly one type')
    if (typeof type !== 'string' || !TYPES.has(type)) {
      fail(joinPath(path, 'type'), `unknown type ${describeScalar(type)}`)
    }
  }
  if (has('oneOf')) {
    for (const key of keys as string[]) {
      if (key !== 'oneOf' && !ANNOTATIONS.has(key)) {
        fail(joinPath(path, key), `"${key}" cannot be combined with oneOf; put it inside the branches`)
      }
    }
    const branches = denseArray(ownValue(node, 'oneOf'), joinPath(path, 'oneOf'), 'oneOf')
    if (branches.length < 2) fail(joinPath(path, 'oneOf'), 'oneOf needs at least 2 branches')
    for (let i = branches.length - 1; i >= 0; i--) {
      stack.push({ node: branches[i], path: joinPath(joinPath(path, 'oneOf'), i) })
    }
    return
  }
  for (const key of OBJECT_ONLY) {
    if (has(key) && type !== 'object') fail(joinPath(path, key), `"${key}" is only allowed on type "object"`)
  }
  if (has('items') && type !== 'array')
    fail(joinPath(path, 'items'), '"items" is only allowed on type "array"')
  const scalarType = type === 'object' || type === 'array'
  for (const key of ['enum', 'const']) {
    if (has(key) && scalarType) fail(joinPath(path, key), `"${key}" is only allowed on scalar types`)
  }
  if (has('enum')) {
    const members = denseArray(ownValue(node, 'enum'), joinPath(path, 'enum'), 'enum')
    if (members.length === 0) fail(joinPath(path, 'enum'), 'enum must not be empty')
    for (let i = 0; i < members.length; i++) {
      checkScalarMember(type, members[i], joinPath(joinPath(path, 'enum'), i), 'enum member')
    }
  }
  if (has('const')) checkScalarMember(type, ownValue(node, 'const'), joinPath(path, 'const'), 'const')
  if (type === 'object') checkObject(node, path, stack)
  if (has('items')) stack.push({ node: ownValue(node, 'items'), path: joinPath(path, 'items') })
}

function checkObject(node: object, path: string, stack: Frame[]): void {
  const additional = ownValue(node, 'additionalProperties')
  if (additional !== undefined && typeof additional !== 'boolean') {
    fail(joinPath(path, 'additionalProperties'), 'additionalProperties must be a boolean')
  }
  const propertiesPath = joinPath(path, 'properties')
  const properties = ownValue(node, 'properties')
  const names = new Set<string>()
  if (properties !== undefined) {
    if (!isPlainObject(properties)) fail(propertiesPath, 'properties must be a plain object')
    const entries: [string, unknown][] = []
    for (const key of Reflect.ownKeys(properties)) {
      if (typeof key === 'symbol') fail(propertiesPath, `symbol key ${String(key)} is not supported`)
      const descriptor = Object.getOwnPropertyDescriptor(properties, key)!
      if (!('value' in descriptor) || !descriptor.enumerable) {
        fail(joinPath(propertiesPath, key), 'properties must be enumerable data properties')
      }
      names.add(key)
      entries.push([key, descriptor.value])
    }
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i]!
      stack.push({ node: child, path: joinPath(propertiesPath, key) })
    }
  }
  const requiredPath = joinPath(path, 'required')
  const required = ownValue(node, 'required')
  if (required !== undefined) {
    const seen = new Set<string>()
    denseArray(required, requiredPath, 'required').forEach((name, i) => {
      if (typeof name !== 'string') fail(joinPath(requiredPath, i), 'required entries must be strings')
      if (!names.has(name))
        fail(joinPath(requiredPath, i), `required property "${name}" is not declared in properties`)
      if (seen.has(name)) fail(joinPath(requiredPath, i), `required property "${name}" is listed twice`)
      seen.add(name)
    })
  }
}

/**
 * Asserts that `node` stays inside the enforced raw JSON Schema subset: annotation-only `{}`,
 * one scalar `type`, object `properties`/`required`/boolean `additionalProperties`, array
 * `items`, type-correct scalar `enum`/`const`, exact-one `oneOf` (≥ 2 branches, annotations
 * only beside it) and lossless `title`/`description`/`default`/`examples`. Throws
 * `UnsupportedJsonSchemaError` with the path of the first offending keyword (also for cycles).
 * Stack-safe for any nesting depth.
 */
export function assertSupportedJsonSchema(node: unknown): asserts node is JsonSchemaNode {
  const stack: Frame[] = [{ node, path: '$' }]
  const active = new Set<object>()
  while (stack.length > 0) {
    const frame = stack.pop()!
    if ('exit' in frame) {
      active.delete(frame.exit)
      continue
    }
    const current = frame.node
    if (typeof current === 'object' && current !== null) {
      if (active.has(current)) fail(frame.path, 'cyclic schema references are not supported')
      active.add(current)
      stack.push({ exit: current })
    }
    checkNode(current, frame.path, stack)
  }
}

/**
 * Asserts `node` is a supported `JsonSchemaNode` whose root is `type: 'object'`
 * (tool parameters, subagent and workflow inputs). Throws `UnsupportedJsonSchemaError`.
 */
export function assertObjectJsonSchema(node: unknown): asserts node is ObjectJsonSchema {
  assertSupportedJsonSchema(node)
  if (node.type !== 'object') {
    throw new UnsupportedJsonSchemaError(
      '$',
      `expected an object root schema (type "object"), got ${describeScalar(node.type)}`,
    )
  }
}

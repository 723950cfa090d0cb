import { LosslessJsonError, SchemaDefinitionError } from './errors'
import { boundViolation } from './internal/bound-violation'
import { describeScalar, setOwn } from './internal/describe'
import { joinPath } from './internal/path'
import { readSpecArray, readSpecRecord } from './internal/read-spec'
import { copySpecBounds, isSpecBound, misplacedBound, takesBound } from './internal/spec-bounds'
import type { ParameterSchemaSpec, ValueSchemaSpec } from './schema-spec'
import { snapshotJson } from './snapshot-json'
import type { JsonSchemaNode, JsonValue, ObjectJsonSchema } from './types'

type Slot = (node: JsonSchemaNode) => void

interface Task {
  readonly spec: unknown
  readonly path: string
  readonly field: boolean
  readonly assign: Slot
}

const SCALAR_TYPES: Record<string, string> = {
  string: 'string',
  number: 'number',
  integer: 'number',
  boolean: 'boolean',
}
const COMMON_KEYS = ['title', 'description', 'default', 'examples', 'deprecated']
const ALLOWED_KEYS: Record<string, readonly string[]> = {
  string: ['type', 'enum', 'const', ...COMMON_KEYS],
  number: ['type', 'enum', 'const', ...COMMON_KEYS],
  integer: ['type', 'enum', 'const', ...COMMON_KEYS],
  boolean: ['type', 'enum', 'const', ...COMMON_KEYS],
  null: ['type', ...COMMON_KEYS],
  array: ['type', 'items', ...COMMON_KEYS],
  object: ['type', 'properties', 'additionalProperties', ...COMMON_KEYS],
  json: ['type', ...COMMON_KEYS],
  oneOf: ['oneOf', ...COMMON_KEYS],
  anyOf: ['anyOf', ...COMMON_KEYS],
}

/** The DSL's combinators: a spec holding one of these keys has no `type`. */
const COMBINATORS = ['oneOf', 'anyOf'] as const

/** Which combinator `spec` is (both at once is a definition error), or `undefined`. */
function combinatorOf(spec: Map<string, unknown>, path: string): (typeof COMBINATORS)[number] | undefined {
  const present = COMBINATORS.filter((key) => spec.has(key))
  if (present.length > 1)
    throw new SchemaDefinitionError(
      path,
      'a spec takes one of oneOf or anyOf, not both (nest one in the other)',
    )
  return present[0]
}

/** An `enum` member or `const` that the spec's own bounds refuse is a definition error. */
function checkMembersWithinBounds(node: JsonSchemaNode, path: string): void {
  if (!Object.keys(node).some(isSpecBound)) return
  const members: [unknown, string][] =
    node.const !== undefined
      ? [[node.const, joinPath(path, 'const')]]
      : (node.enum ?? []).map((member, i) => [member, joinPath(joinPath(path, 'enum'), i)])
  for (const [member, at] of members) {
    const problem = boundViolation(node, member)
    if (problem !== undefined) {
      throw new SchemaDefinitionError(at, `${describeScalar(member)} can never be accepted: ${problem}`)
    }
  }
}

function isCombinator(kind: string): boolean {
  return (COMBINATORS as readonly string[]).includes(kind)
}

function checkScalarValue(type: string, value: unknown, path: string, what: string): void {
  const ok =
    type === 'integer'
      ? Number.isInteger(value) && !Object.is(value, -0)
      : type === 'number'
        ? typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0)
        : typeof value === SCALAR_TYPES[type]
  if (!ok)
    throw new SchemaDefinitionError(path, `${what} ${describeScalar(value)} does not match type "${type}"`)
}

/** Copies `default` / `examples` (lossless JSON, deep-frozen copies) and `deprecated`. */
function copyJsonAnnotations(spec: Map<string, unknown>, path: string, node: JsonSchemaNode): void {
  if (spec.has('default')) node.default = annotationJson(spec.get('default'), joinPath(path, 'default'))
  if (spec.has('examples')) {
    const at = joinPath(path, 'examples')
    node.examples = Object.freeze(
      readSpecArray(spec.get('examples'), at, 'examples').map((example, i) =>
        annotationJson(example, joinPath(at, i)),
      ),
    ) as JsonValue[]
  }
  if (spec.has('deprecated')) node.deprecated = spec.get('deprecated') as boolean
}

function annotationJson(value: unknown, path: string): JsonValue {
  try {
    return snapshotJson(value)
  } catch (error) {
    if (error instanceof LosslessJsonError) {
      throw new SchemaDefinitionError(
        path + error.path.slice(1),
        `annotation is not lossless JSON: ${error.message}`,
      )
    }
    throw error
  }
}

function compileOne(task: Task, stack: Task[], created: object[]): void {
  const { path } = task
  const entries = readSpecRecord(task.spec, path, 'schema spec')
  const spec = new Map(entries)
  const combinator = combinatorOf(spec, path)
  const kind = combinator ?? spec.get('type')
  if (
    typeof kind !== 'string' ||
    !(kind in ALLOWED_KEYS) ||
    (combinator === undefined && isCombinator(kind))
  ) {
    throw new SchemaDefinitionError(
      joinPath(path, 'type'),
      `unknown type ${describeScalar(kind)}; expected string, number, integer, boolean, null, array, object or json (or a oneOf / anyOf spec)`,
    )
  }
  const allowed = ALLOWED_KEYS[kind]!
  for (const [key, value] of entries) {
    if (key === 'required' && task.field) {
      if (typeof value !== 'boolean')
        throw new SchemaDefinitionError(joinPath(path, key), 'required must be a boolean')
      continue
    }
    if (takesBound(kind, key)) continue
    if (isSpecBound(key)) throw misplacedBound(kind, key, path)
    if (!allowed.includes(key)) {
      throw new SchemaDefinitionError(joinPath(path, key), `unknown keyword "${key}" for ${kind} spec`)
    }
    if ((key === 'title' || key === 'description') && typeof value !== 'string') {
      throw new SchemaDefinitionError(joinPath(path, key), `${key} must be a string`)
    }
    if (key === 'deprecated' && typeof value !== 'boolean') {
      throw new SchemaDefinitionError(joinPath(path, key), 'deprecated must be a boolean')
    }
  }
  const node: JsonSchemaNode = {}
  created.push(node)
  if (combinator === undefined && kind !== 'json') node.type = kind as JsonSchemaNode['type'] & string
  if (spec.has('title')) node.title = spec.get('title') as string
  if (spec.has('description')) node.description = spec.get('description') as string
  copyJsonAnnotations(spec, path, node)
  copySpecBounds(kind, spec, path, node)
  if (kind in SCALAR_TYPES) {
    if (spec.has('enum')) {
      const values = readSpecArray(spec.get('enum'), joinPath(path, 'enum'), 'enum')
      if (values.length === 0)
        throw new SchemaDefinitionError(joinPath(path, 'enum'), 'enum must not be empty')
      for (let i = 0; i < values.length; i++) {
        checkScalarValue(kind, values[i], joinPath(joinPath(path, 'enum'), i), 'enum member')
      }
      node.enum = values as JsonSchemaNode['enum'] & unknown[]
      created.push(node.enum)
    }
    if (spec.has('const')) {
      checkScalarValue(kind, spec.get('const'), joinPath(path, 'const'), 'const')
      node.const = spec.get('const') as string
    }
    checkMembersWithinBounds(node, path)
  } else if (kind === 'array') {
    if (spec.has('items')) {
      node.items = {}
      stack.push({
        spec: spec.get('items'),
        path: joinPath(path, 'items'),
        field: false,
        assign: (child) => {
          node.items = child
        },
      })
    }
  } else if (kind === 'object') {
    const additional = spec.get('additionalProperties')
    if (typeof additional !== 'boolean') {
      throw new SchemaDefinitionError(
        joinPath(path, 'additionalProperties'),
        'explicit object specs must declare additionalProperties: true | false',
      )
    }
    if (spec.has('properties')) {
      const { properties, required } = compileFields(
        spec.get('properties'),
        joinPath(path, 'properties'),
        stack,
        created,
      )
      node.properties = properties
      if (required.length > 0) node.required = required
    }
    node.additionalProperties = additional
  } else if (combinator !== undefined) {
    const branchesPath = joinPath(path, combinator)
    const branches = readSpecArray(spec.get(combinator), branchesPath, combinator)
    if (branches.length < 2)
      throw new SchemaDefinitionError(branchesPath, `${combinator} needs at least 2 branches`)
    const out: JsonSchemaNode[] = branches.map(() => ({}))
    created.push(out)
    node[combinator] = out
    for (let i = branches.length - 1; i >= 0; i--) {
      stack.push({
        spec: branches[i],
        path: joinPath(branchesPath, i),
        field: false,
        assign: (child) => {
          out[i] = child
        },
      })
    }
  }
  task.assign(node)
}

function compileFields(
  record: unknown,
  path: string,
  stack: Task[],
  created: object[],
): { properties: Record<string, JsonSchemaNode>; required: string[] } {
  const entries = readSpecRecord(record, path, 'properties')
  const properties: Record<string, JsonSchemaNode> = {}
  const required: string[] = []
  created.push(properties, required)
  for (const [name] of entries) setOwn(properties, name, {})
  for (let i = entries.length - 1; i >= 0; i--) {
    const [name, field] = entries[i]!
    stack.push({
      spec: field,
      path: joinPath(path, name),
      field: true,
      assign: (child) => setOwn(properties, name, child),
    })
  }
  for (const [name, field] of entries) {
    const flag =
      typeof field === 'object' && field !== null
        ? Object.getOwnPropertyDescriptor(field, 'required')
        : undefined
    if (flag !== undefined && flag.value === true) {
      required.push(name)
    }
  }
  return { properties, required }
}

function drain(stack: Task[], created: object[]): void {
  while (stack.length > 0) compileOne(stack.pop()!, stack, created)
  for (const object of created) Object.freeze(object)
}

/**
 * Compiles a `ValueSchemaSpec` (any JSON root) to a deep-frozen `JsonSchemaNode`.
 * Throws `SchemaDefinitionError` (with the spec path) for an unknown type or keyword, an
 * `enum`/`const` member of the wrong type, a bound on a type it does not apply to or with a bad
 * value (a `pattern` the linear-time engine refuses, crossed min/max), an explicit object
 * without `additionalProperties`,
 * symbol / non-enumerable / inherited keys, sparse or non-array arrays, a `oneOf` or `anyOf`
 * with fewer than two branches, and a spec with both. Stack-safe for any nesting depth.
 */
export function valueSchemaSpecToJsonSchema(spec: ValueSchemaSpec): JsonSchemaNode {
  const result: { node?: JsonSchemaNode } = {}
  const created: object[] = []
  drain([{ spec, path: '$', field: false, assign: (node) => (result.node = node) }], created)
  return result.node!
}

/**
 * Compiles a `ParameterSchemaSpec` to the implicit open parameter object
 * `{ type: 'object', properties, required? }` (no `additionalProperties`), deep-frozen.
 * Field specs may carry `required: true`. Errors as for `valueSchemaSpecToJsonSchema`.
 */
export function parameterSchemaSpecToJsonSchema(spec: ParameterSchemaSpec): ObjectJsonSchema {
  const stack: Task[] = []
  const created: object[] = []
  const { properties, required } = compileFields(spec, '$', stack, created)
  const root: ObjectJsonSchema = { type: 'object', properties }
  if (required.length > 0) root.required = required
  created.push(root)
  drain(stack, created)
  return root
}

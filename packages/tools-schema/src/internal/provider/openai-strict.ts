import { setOwn } from '../describe'
import { joinPath } from '../path'
import {
  childList,
  childMap,
  foldText,
  opaqueDescription,
  type RewriteContext,
  type RewriteJob,
  withFolded,
} from './rewrite-tree'
import {
  acceptsNull,
  branchOfType,
  CONSTRAINT_UNION_FOLDED,
  elementSchemaOf,
  isConstraintUnion,
  isObject,
  isOpaque,
  mergeAllOf,
  notASchema,
  type SchemaObject,
  typesOf,
  typesOfValues,
} from './schema-shape'

/** The `format` values OpenAI strict mode documents as supported. */
export const OPENAI_FORMATS: ReadonlySet<string> = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
])

/** Keywords strict mode accepts on any node, and per instance type. */
export const OPENAI_COMMON_KEYWORDS: ReadonlySet<string> = new Set([
  'type',
  'description',
  'title',
  'enum',
  'const',
  'anyOf',
  '$ref',
  '$defs',
])
export const OPENAI_TYPED_KEYWORDS: Readonly<Record<string, readonly string[]>> = {
  string: ['pattern', 'format'],
  number: ['multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum'],
  integer: ['multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum'],
  array: ['items', 'minItems', 'maxItems'],
  object: ['properties', 'required', 'additionalProperties'],
}

/** Keywords the converter removes without a note: identifiers and comments, not constraints. */
const DROPPED_SILENTLY = new Set(['$schema', '$id', '$comment', '$anchor', 'definitions'])

/**
 * Make a converted property schema accept `null` as well. It edits the node in place: the
 * node is the converter's own fresh output, and its children may still be filled in later.
 */
export function nullableStrict(schema: unknown): unknown {
  if (!isObject(schema)) return schema
  const node = schema as Record<string, unknown>
  const types = typesOf(node)
  if (types.length > 0 && !Object.hasOwn(node, 'const') && !Array.isArray(node.anyOf)) {
    if (Array.isArray(node.enum) && !node.enum.includes(null)) node.enum = [...node.enum, null]
    if (!types.includes('null')) node.type = [...types, 'null']
    return node
  }
  if (Array.isArray(node.anyOf) && !Object.hasOwn(node, 'type')) {
    node.anyOf.push({ type: 'null' })
    return node
  }
  return { anyOf: [node, { type: 'null' }] }
}

function rewriteRef(ref: string): string {
  return ref.startsWith('#/definitions/') ? `#/$defs/${ref.slice('#/definitions/'.length)}` : ref
}

/** Convert one node to OpenAI strict mode; children are scheduled through `context`. */
export function convertOpenAiStrict(job: RewriteJob, context: RewriteContext): unknown {
  const { path } = job
  if (job.node === false) {
    context.change(path, '`false` schema: no value is accepted; shown as a null-only schema')
    return { type: 'null', description: 'no value is accepted here' }
  }
  if (!isObject(job.node) && job.node !== true) return notASchema(path, job.node)
  if (path === '$' && isOpaque(job.node)) {
    // the parameters themselves must stay an object: free-form ones are offered as an empty one
    context.change(path, 'free-form parameters: offered as an object without declared members')
    const description = isObject(job.node) ? job.node.description : undefined
    const root = { type: 'object', properties: {}, required: [], additionalProperties: false }
    return typeof description === 'string' ? { ...root, description } : root
  }
  if (isOpaque(job.node)) {
    const description = isObject(job.node) ? job.node.description : undefined
    context.change(path, 'free-form value: sent as a JSON-encoded string and decoded back')
    return { type: 'string', description: opaqueDescription(description, 'any JSON value') }
  }
  const { node, rest } = mergeAllOf(job.node as SchemaObject)
  const folded: string[] = []
  if (rest.length > 0) {
    folded.push(foldText('must also match', rest))
    context.change(
      joinPath(path, 'allOf'),
      '`allOf` branches that could not be merged folded into the description',
    )
  }
  const out: Record<string, unknown> = {}
  if (typeof node.$ref === 'string') {
    // strict mode refuses keywords beside `$ref`: the reference stands alone
    const dropped = Object.keys(node).filter((key) => key !== '$ref' && !DROPPED_SILENTLY.has(key))
    if (dropped.length > 0) context.change(path, `keywords beside \`$ref\` dropped: ${dropped.join(', ')}`)
    if (node.$ref !== rewriteRef(node.$ref)) context.change(path, '`definitions` reference moved to `$defs`')
    return { $ref: rewriteRef(node.$ref) }
  }
  const types = typesOf(node).filter((type) => type !== 'null')
  const nullable = typesOf(node).includes('null')
  if (types.length > 1) {
    context.change(path, 'a type list became `anyOf` of single types')
    const branches = types.map((type) => branchOfType(node, type))
    const anyOf = childList(context, branches, joinPath(path, 'anyOf'))
    if (nullable) anyOf.push({ type: 'null' })
    const description = withFolded(node.description, folded)
    return description === undefined ? { anyOf } : { description, anyOf }
  }
  const allowed = new Set<string>(OPENAI_COMMON_KEYWORDS)
  for (const type of types) for (const key of OPENAI_TYPED_KEYWORDS[type] ?? []) allowed.add(key)
  const objectLike = types.includes('object') || (types.length === 0 && isObject(node.properties))
  if (objectLike) for (const key of OPENAI_TYPED_KEYWORDS.object!) allowed.add(key)
  for (const [key, value] of Object.entries(node)) {
    if (DROPPED_SILENTLY.has(key) || key === 'description' || value === undefined) continue
    if ((key === 'anyOf' || key === 'oneOf') && isConstraintUnion(node, value)) {
      folded.push(foldText(key, value))
      context.change(joinPath(path, key), CONSTRAINT_UNION_FOLDED)
      continue
    }
    if (key === 'oneOf' && Array.isArray(value)) {
      context.change(
        joinPath(path, key),
        '`oneOf` relaxed to `anyOf` (exclusivity is checked after the call)',
      )
      out.anyOf = childList(context, value, joinPath(path, key), (out.anyOf as unknown[] | undefined) ?? [])
      continue
    }
    if (key === 'format' && !OPENAI_FORMATS.has(String(value))) {
      folded.push(foldText(key, value))
      context.change(
        joinPath(path, key),
        '`format` not supported by strict mode: folded into the description',
      )
      continue
    }
    if (!allowed.has(key)) {
      folded.push(foldText(key, value))
      context.change(
        joinPath(path, key),
        `\`${key}\` not supported by strict mode: folded into the description`,
      )
      continue
    }
    if (key === 'anyOf' && Array.isArray(value)) {
      out.anyOf = childList(context, value, joinPath(path, key), (out.anyOf as unknown[] | undefined) ?? [])
    } else if (key === 'items') {
      if (Array.isArray(value)) {
        folded.push(foldText('prefixItems', value))
        context.change(
          joinPath(path, key),
          'tuple `items` not supported by strict mode: folded into the description',
        )
      }
    } else if (key === '$defs') {
      out.$defs = childMap(context, value, joinPath(path, key))
    } else if (key !== 'properties' && key !== 'required' && key !== 'additionalProperties') {
      setOwn(out, key, value)
    }
  }
  if (isObject(node.definitions)) {
    const into = (out.$defs as Record<string, unknown> | undefined) ?? {}
    out.$defs = childMap(context, node.definitions, joinPath(path, 'definitions'), undefined, into)
    context.change(joinPath(path, 'definitions'), '`definitions` moved to `$defs`')
  }
  if (objectLike) convertObject(node, out, folded, job, context)
  if (types.includes('array')) {
    out.items = null
    context.child(elementSchemaOf(node), joinPath(path, 'items'), (converted) => (out.items = converted))
  }
  if (types.length === 0 && !objectLike && !Array.isArray(out.anyOf)) inferType(node, out)
  if (nullable && types.length === 1) out.type = [types[0], 'null']
  const description = withFolded(node.description, folded)
  if (description !== undefined) out.description = description
  return out
}

function convertObject(
  node: SchemaObject,
  out: Record<string, unknown>,
  folded: string[],
  job: RewriteJob,
  context: RewriteContext,
): void {
  const { path } = job
  const properties = isObject(node.properties) ? node.properties : {}
  const required = new Set(Array.isArray(node.required) ? node.required : [])
  const propertiesPath = joinPath(path, 'properties')
  out.properties = childMap(context, properties, propertiesPath, (key, converted) => {
    if (required.has(key)) return converted
    return acceptsNull(properties[key], context.root) ? converted : nullableStrict(converted)
  })
  for (const key of Object.keys(properties)) {
    if (required.has(key)) continue
    const where = joinPath(propertiesPath, key)
    if (acceptsNull(properties[key], context.root)) {
      context.change(where, 'optional property that accepts null: required, and `null` stays a value')
    } else {
      context.change(where, 'optional property: required and nullable; `null` is read back as absent')
    }
  }
  out.required = Object.keys(properties)
  const extra = node.additionalProperties
  if (extra !== false) {
    if (extra !== undefined && extra !== true) folded.push(foldText('additionalProperties', extra))
    context.change(
      joinPath(path, 'additionalProperties'),
      'additional properties are not accepted in strict mode (`additionalProperties: false`)',
    )
  }
  out.additionalProperties = false
  if (path === '$' && !Object.hasOwn(out, 'type')) out.type = 'object'
}

/** Strict mode wants a `type` on every non-union node: take it from `enum`/`const` values. */
function inferType(node: SchemaObject, out: Record<string, unknown>): void {
  const types = typesOfValues(node)
  if (types.length === 1) out.type = types[0]
  else if (types.length > 1) out.type = types
}

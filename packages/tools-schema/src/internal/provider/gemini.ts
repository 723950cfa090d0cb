import { joinPath } from '../path'
import {
  childList,
  childMap,
  foldText,
  opaqueDescription,
  type RewriteContext,
  type RewriteJob,
  refCount,
  withFolded,
} from './rewrite-tree'
import {
  branchOfType,
  CONSTRAINT_UNION_FOLDED,
  elementSchemaOf,
  isConstraintUnion,
  isObject,
  isOpaqueIn,
  mergeAllOf,
  notASchema,
  refName,
  resolvePointer,
  type SchemaObject,
  typesOf,
  typesOfValues,
} from './schema-shape'

/** How many times one `$ref` may be inlined along a path before the recursion is cut. */
export const GEMINI_REF_DEPTH = 3

/** Gemini's `Type` enum names, by JSON Schema type name. */
export const GEMINI_TYPES: Readonly<Record<string, string>> = {
  string: 'STRING',
  number: 'NUMBER',
  integer: 'INTEGER',
  boolean: 'BOOLEAN',
  array: 'ARRAY',
  object: 'OBJECT',
}

/** The fields of Gemini's `Schema` object (its OpenAPI 3.0 subset) this converter emits. */
export const GEMINI_FIELDS: ReadonlySet<string> = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
])

/**
 * The `format` values the converter emits, per type: the ones every revision of Gemini's
 * `Schema` documentation lists (older revisions name only `enum` and `date-time` for strings).
 */
export const GEMINI_FORMATS: Readonly<Record<string, readonly string[]>> = {
  STRING: ['enum', 'date-time'],
  NUMBER: ['float', 'double'],
  INTEGER: ['int32', 'int64'],
}

/**
 * The `format` values Gemini's current `Schema` documentation names, per type (what the checker
 * accepts): `Schema.format` lists `email`, `byte`, `date`, `date-time` and `password` for strings,
 * and `Schema.enum` shows `format: enum` on `STRING` and `INTEGER`.
 */
export const GEMINI_DOCUMENTED_FORMATS: Readonly<Record<string, readonly string[]>> = {
  STRING: ['enum', 'date-time', 'date', 'email', 'byte', 'password'],
  NUMBER: ['float', 'double'],
  INTEGER: ['int32', 'int64', 'enum'],
}

/** The types `Schema.enum` is documented on (its values are strings either way). */
export const GEMINI_ENUM_TYPES: ReadonlySet<string> = new Set(['STRING', 'INTEGER'])

const DROPPED_SILENTLY = new Set(['$schema', '$id', '$comment', '$anchor', '$defs', 'definitions'])
/** Keywords copied through when their value has the shape Gemini expects. */
const COPIED = ['title', 'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'minimum', 'maximum']
const COPIED_OBJECT = ['minProperties', 'maxProperties']

function opaque(node: unknown, what: string): Record<string, unknown> {
  const description = isObject(node) ? node.description : undefined
  return { type: 'STRING', description: opaqueDescription(description, what) }
}

/** Convert one node to Gemini's schema subset; children are scheduled through `context`. */
export function convertGemini(job: RewriteJob, context: RewriteContext): unknown {
  const { path } = job
  if (job.node === false) {
    context.change(path, '`false` schema: no value is accepted; shown as a described string')
    return { type: 'STRING', description: 'no value is accepted here' }
  }
  if (!isObject(job.node) && job.node !== true) return notASchema(path, job.node)
  if (path === '$' && isOpaqueIn(job.node, 'gemini')) {
    // the parameters themselves must stay an `OBJECT`; one without properties is accepted at the root
    context.change(path, 'free-form parameters: offered as an `OBJECT` without declared members')
    const description = isObject(job.node) ? job.node.description : undefined
    return typeof description === 'string' ? { type: 'OBJECT', description } : { type: 'OBJECT' }
  }
  if (isOpaqueIn(job.node, 'gemini')) {
    context.change(path, 'free-form value: sent as a JSON-encoded string and decoded back')
    return opaque(job.node, 'any JSON value')
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
  if (typeof node.$ref === 'string') return inlineRef(node, node.$ref, job, context)
  const types = typesOf(node)
  const nullable = types.includes('null') || (Array.isArray(node.enum) && node.enum.includes(null))
  const concrete = types.filter((type) => type !== 'null')
  const out: Record<string, unknown> = {}
  if (concrete.length > 1) {
    context.change(path, 'a type list became `anyOf` of single types')
    out.anyOf = childList(
      context,
      concrete.map((type) => branchOfType(node, type)),
      joinPath(path, 'anyOf'),
    )
  } else if (concrete.length === 1) {
    out.type = GEMINI_TYPES[concrete[0]!] ?? 'STRING'
  } else if (isObject(node.properties)) {
    out.type = 'OBJECT'
  }
  if (nullable) out.nullable = true
  const type = out.type as string | undefined
  for (const [key, value] of Object.entries(node)) {
    if (DROPPED_SILENTLY.has(key) || key === 'type' || key === 'description' || key === 'nullable') continue
    const where = joinPath(path, key)
    if ((key === 'anyOf' || key === 'oneOf') && isConstraintUnion(node, value)) {
      folded.push(foldText(key, value))
      context.change(where, CONSTRAINT_UNION_FOLDED)
    } else if (key === 'anyOf' || key === 'oneOf') {
      if (!Array.isArray(value)) continue
      if (key === 'oneOf')
        context.change(where, '`oneOf` relaxed to `anyOf` (exclusivity is checked after the call)')
      // a `null` branch becomes OpenAPI's `nullable` on the union itself
      const branches = value.filter((branch) => !isNullBranch(branch))
      if (branches.length < value.length) {
        out.nullable = true
        context.change(where, 'a `null` branch became `nullable: true`')
      }
      out.anyOf = childList(context, branches, where, (out.anyOf as unknown[] | undefined) ?? [])
    } else if (key === 'enum' || key === 'const') {
      const values = key === 'const' ? [value] : Array.isArray(value) ? value : []
      const strings = values.filter((v) => v !== null)
      if (
        strings.every((v) => typeof v === 'string') &&
        strings.length > 0 &&
        (type === 'STRING' || type === undefined)
      ) {
        out.type = 'STRING'
        out.enum = strings
        if (key === 'const') context.change(where, '`const` became a one-value `enum`')
      } else {
        folded.push(foldText(key === 'const' ? 'must equal' : 'one of', strings))
        context.change(where, `non-string \`${key}\` folded into the description`)
      }
    } else if (key === 'format') {
      if (type !== undefined && GEMINI_FORMATS[type]?.includes(String(value))) out.format = value
      else {
        folded.push(foldText('format', value))
        context.change(where, "`format` not in Gemini's list: folded into the description")
      }
    } else if (key === 'items' && !Array.isArray(value)) {
      // scheduled below, with arrays that declare no element schema
    } else if ((key === 'properties' || key === 'required') && type !== 'OBJECT') {
      // Gemini refuses `properties`/`required` on anything but `OBJECT`: on a non-object value
      // they never applied, and a type list's `object` branch already carries its own copy
      if (concrete.length <= 1)
        context.change(where, `\`${key}\` dropped: Gemini allows it only on \`OBJECT\``)
    } else if (key === 'properties' && isObject(value)) {
      out.properties = childMap(context, value, where)
    } else if (key === 'required' && Array.isArray(value)) {
      out.required = value.filter((name) => isObject(node.properties) && Object.hasOwn(node.properties, name))
    } else if (key === 'default' || key === 'examples') {
      if (key === 'default') out.default = value
      else if (Array.isArray(value) && value.length > 0) out.example = value[0]
    } else if (key === 'exclusiveMinimum' || key === 'exclusiveMaximum') {
      folded.push(foldText(key, value))
      context.change(where, `\`${key}\` folded into the description`)
    } else if (COPIED.includes(key) || (COPIED_OBJECT.includes(key) && type === 'OBJECT')) {
      out[key] = value
    } else if (key === 'additionalProperties' && value === false) {
      // Gemini objects are closed to the model already: nothing to say
    } else {
      folded.push(foldText(key, value))
      context.change(where, `\`${key}\` not in Gemini's schema subset: folded into the description`)
    }
  }
  if (out.type === undefined && out.anyOf === undefined) {
    // Gemini wants a type on every node: take it from the (folded) enum/const values
    const inferred = typesOfValues(node).filter((t) => t !== 'null')
    if (inferred.length === 1) out.type = GEMINI_TYPES[inferred[0]!]
    else if (inferred.length > 1) out.anyOf = inferred.map((t) => ({ type: GEMINI_TYPES[t] }))
  }
  if (out.type === 'ARRAY') {
    out.items = null
    context.child(elementSchemaOf(node), joinPath(path, 'items'), (converted) => (out.items = converted))
  }
  const description = withFolded(node.description, folded)
  if (description !== undefined) out.description = description
  return out
}

/** `{ type: 'null' }` (with annotations at most): a union branch Gemini writes as `nullable`. */
function isNullBranch(branch: unknown): boolean {
  return (
    isObject(branch) &&
    typesOf(branch).join() === 'null' &&
    Object.keys(branch).every((key) => key === 'type' || key === 'title' || key === 'description')
  )
}

function inlineRef(node: SchemaObject, ref: string, job: RewriteJob, context: RewriteContext): unknown {
  const target = resolvePointer(context.root, ref)
  const name = refName(ref)
  if (target === undefined) {
    context.change(job.path, `unresolvable \`$ref\` ${ref}: shown as a JSON-encoded string`)
    return opaque(node, `a ${name} value`)
  }
  if (refCount(job.refs, ref) >= GEMINI_REF_DEPTH) {
    context.change(
      job.path,
      `recursive \`${name}\` cut after ${GEMINI_REF_DEPTH} levels: deeper values are sent as a JSON-encoded string`,
    )
    return opaque(node, `a ${name} value (recursion cut here)`)
  }
  context.change(job.path, `\`$ref\` ${ref} inlined`)
  const siblings = { ...node }
  delete siblings.$ref
  // the reference's own description wins unless the referring node has one
  const merged = isObject(target) ? { ...target, ...siblings } : target
  return context.replace(merged, { refs: { ref, parent: job.refs } })
}

/**
 * A tolerant reading of an arbitrary (possibly unsupported or hostile) schema node for the code
 * generators. Never throws and never invokes getters.
 */
export type CodegenView =
  | { readonly kind: 'unknown' }
  | { readonly kind: 'any' }
  | { readonly kind: 'scalar'; readonly type: 'string' | 'number' | 'integer' | 'boolean' | 'null' }
  | { readonly kind: 'literals'; readonly type: string | undefined; readonly values: readonly unknown[] }
  | { readonly kind: 'array'; readonly items: unknown; readonly hasItems: boolean }
  | {
      readonly kind: 'object'
      readonly fields: readonly CodegenField[]
      readonly closed: boolean
      readonly hasProperties: boolean
    }
  | { readonly kind: 'union'; readonly branches: readonly unknown[] }

/** One declared property of an object view. */
export interface CodegenField {
  readonly name: string
  readonly node: unknown
  readonly required: boolean
  /** The property schema's annotations, when it has any worth showing. */
  readonly doc: CodegenDoc | undefined
}

/** The annotations of a node that the generators show as documentation. */
export interface CodegenDoc {
  readonly title: string | undefined
  readonly description: string | undefined
  readonly hasDefault: boolean
  readonly default: unknown
  readonly examples: readonly unknown[]
  readonly deprecated: boolean
}

/** Keywords whose meaning the generators cannot express: the node degrades to unknown / Any. */
const STRUCTURAL = new Set([
  'anyOf',
  'allOf',
  'not',
  '$ref',
  '$dynamicRef',
  'if',
  'then',
  'else',
  'patternProperties',
  'prefixItems',
  'additionalItems',
  'dependentSchemas',
  'dependencies',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'contains',
])

const SCALARS = new Set(['string', 'number', 'integer', 'boolean', 'null'])

/** Own data property value, or undefined (never runs accessors). */
export function readOwn(target: unknown, key: string): unknown {
  if (typeof target !== 'object' || target === null) return undefined
  const descriptor = Object.getOwnPropertyDescriptor(target, key)
  return descriptor !== undefined && 'value' in descriptor ? descriptor.value : undefined
}

function ownStringKeys(target: object): string[] {
  return Reflect.ownKeys(target).filter((key): key is string => typeof key === 'string')
}

function denseItems(value: unknown): unknown[] | undefined {
  if (!Array.isArray(value)) return undefined
  const out: unknown[] = []
  for (let i = 0; i < value.length; i++) {
    const descriptor = Object.getOwnPropertyDescriptor(value, i)
    if (descriptor === undefined || !('value' in descriptor)) return undefined
    out.push(descriptor.value)
  }
  return out
}

function isScalar(value: unknown): boolean {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  )
}

/** Description of a node when it is a string, else undefined. */
export function readDescription(node: unknown): string | undefined {
  const description = readOwn(node, 'description')
  return typeof description === 'string' && description.length > 0 ? description : undefined
}

/** Annotations of a node (`title`, `description`, `default`, `examples`, `deprecated`), or undefined. */
export function readDoc(node: unknown): CodegenDoc | undefined {
  if (typeof node !== 'object' || node === null) return undefined
  const title = readOwn(node, 'title')
  const hasDefault = Object.hasOwn(node, 'default')
  const doc: CodegenDoc = {
    title: typeof title === 'string' && title.length > 0 ? title : undefined,
    description: readDescription(node),
    hasDefault,
    default: hasDefault ? readOwn(node, 'default') : undefined,
    examples: denseItems(readOwn(node, 'examples')) ?? [],
    deprecated: readOwn(node, 'deprecated') === true,
  }
  const empty =
    doc.title === undefined &&
    doc.description === undefined &&
    !hasDefault &&
    doc.examples.length === 0 &&
    !doc.deprecated
  return empty ? undefined : doc
}

/** Reads a node for code generation. */
export function viewOf(node: unknown): CodegenView {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return { kind: 'unknown' }
  const keys = ownStringKeys(node)
  if (keys.some((key) => STRUCTURAL.has(key))) return { kind: 'unknown' }
  const oneOf = readOwn(node, 'oneOf')
  if (oneOf !== undefined) {
    const branches = denseItems(oneOf)
    return branches === undefined || branches.length === 0 ? { kind: 'unknown' } : { kind: 'union', branches }
  }
  const type = readOwn(node, 'type')
  if (
    type !== undefined &&
    (typeof type !== 'string' || !(SCALARS.has(type) || type === 'object' || type === 'array'))
  ) {
    return { kind: 'unknown' }
  }
  const enumValues = readOwn(node, 'enum')
  const hasConst = Object.hasOwn(node, 'const')
  if (enumValues !== undefined || hasConst) {
    const values = hasConst ? [readOwn(node, 'const')] : denseItems(enumValues)
    if (values === undefined || values.length === 0 || !values.every(isScalar)) return { kind: 'unknown' }
    return { kind: 'literals', type, values }
  }
  if (type === undefined) return { kind: 'any' }
  if (type === 'array') {
    const items = readOwn(node, 'items')
    return { kind: 'array', items, hasItems: items !== undefined }
  }
  if (type === 'object') return objectView(node)
  return { kind: 'scalar', type: type as 'string' }
}

function objectView(node: object): CodegenView {
  const properties = readOwn(node, 'properties')
  const requiredList = denseItems(readOwn(node, 'required')) ?? []
  const required = new Set(requiredList.filter((name): name is string => typeof name === 'string'))
  const fields: CodegenField[] = []
  const hasProperties = typeof properties === 'object' && properties !== null && !Array.isArray(properties)
  if (hasProperties) {
    for (const name of ownStringKeys(properties)) {
      const child = readOwn(properties, name)
      fields.push({ name, node: child, required: required.has(name), doc: readDoc(child) })
    }
  }
  return { kind: 'object', fields, closed: readOwn(node, 'additionalProperties') === false, hasProperties }
}

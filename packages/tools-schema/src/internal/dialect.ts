/** The JSON Schema dialects the validator understands. */
export type Dialect = 'draft-07' | '2019-09' | '2020-12'

const DIALECT_BY_URI: Readonly<Record<string, Dialect>> = {
  'json-schema.org/draft-07/schema': 'draft-07',
  'json-schema.org/draft/2019-09/schema': '2019-09',
  'json-schema.org/draft/2020-12/schema': '2020-12',
}

/** The dialect a `$schema` value names, or undefined for one we do not support. */
export function dialectFromUri(uri: string): Dialect | undefined {
  const bare = uri.replace(/^https?:\/\//, '').replace(/#$/, '')
  return DIALECT_BY_URI[bare]
}

/** Keywords that only exist from 2019-09 on (ignored, and linted, under draft-07). */
const SINCE_2019 = [
  '$anchor',
  'dependentRequired',
  'dependentSchemas',
  'minContains',
  'maxContains',
  '$recursiveRef',
  '$recursiveAnchor',
]
/** Keywords that only exist in 2020-12. */
const SINCE_2020 = ['prefixItems', '$dynamicRef', '$dynamicAnchor']
/** Keywords dropped after draft-07 / 2019-09. */
const UNTIL_07 = ['dependencies']
const UNTIL_2019 = ['additionalItems', '$recursiveRef', '$recursiveAnchor']

/** True when `keyword` means nothing in `dialect` (it is then ignored like an unknown keyword). */
export function ignoredByDialect(keyword: string, dialect: Dialect): boolean {
  if (dialect === 'draft-07') return SINCE_2019.includes(keyword) || SINCE_2020.includes(keyword)
  if (dialect === '2019-09') return SINCE_2020.includes(keyword) || UNTIL_07.includes(keyword)
  return UNTIL_07.includes(keyword) || UNTIL_2019.includes(keyword)
}

/** Every keyword the validator knows in some dialect (assertions, applicators, core, annotations). */
export const KNOWN_KEYWORDS: ReadonlySet<string> = new Set([
  '$schema',
  '$id',
  '$comment',
  '$ref',
  '$defs',
  'definitions',
  '$anchor',
  '$dynamicRef',
  '$dynamicAnchor',
  '$recursiveRef',
  '$recursiveAnchor',
  'type',
  'enum',
  'const',
  'anyOf',
  'allOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'items',
  'prefixItems',
  'additionalItems',
  'minItems',
  'maxItems',
  'uniqueItems',
  'contains',
  'minContains',
  'maxContains',
  'properties',
  'required',
  'additionalProperties',
  'patternProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  'unevaluatedProperties',
  'unevaluatedItems',
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
])

/** Keywords whose value is a map of name → schema (walked by the compiler and the linter). */
export const SCHEMA_MAP_KEYWORDS = [
  '$defs',
  'definitions',
  'properties',
  'patternProperties',
  'dependentSchemas',
]
/** Keywords whose value is one schema. */
export const SCHEMA_KEYWORDS = [
  'not',
  'if',
  'then',
  'else',
  'items',
  'additionalItems',
  'contains',
  'additionalProperties',
  'propertyNames',
]
/** Keywords whose value is an array of schemas. */
export const SCHEMA_LIST_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems']

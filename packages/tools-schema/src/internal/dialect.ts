/** The JSON Schema dialects the validator understands. */
export type Dialect = 'draft-04' | 'draft-06' | 'draft-07' | '2019-09' | '2020-12'

const DIALECT_BY_URI: Readonly<Record<string, Dialect>> = {
  'json-schema.org/draft-04/schema': 'draft-04',
  'json-schema.org/draft-06/schema': 'draft-06',
  'json-schema.org/draft-07/schema': 'draft-07',
  'json-schema.org/draft/2019-09/schema': '2019-09',
  'json-schema.org/draft/2020-12/schema': '2020-12',
}

/** The dialect a `$schema` value names, or undefined for one we do not support. */
export function dialectFromUri(uri: string): Dialect | undefined {
  const bare = uri.replace(/^https?:\/\//, '').replace(/#$/, '')
  return DIALECT_BY_URI[bare]
}

/**
 * draft-04 to draft-07: every sibling of `$ref` is ignored and an id of the form `#name` is an
 * anchor (later drafts have `$anchor` and apply `$ref` beside its siblings).
 */
export function isPre2019(dialect: Dialect): boolean {
  return dialect === 'draft-04' || dialect === 'draft-06' || dialect === 'draft-07'
}

/** The keyword that names a schema resource: draft-04 spells it `id`. */
export function idKeyword(dialect: Dialect): 'id' | '$id' {
  return dialect === 'draft-04' ? 'id' : '$id'
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
/** Keywords that only exist from draft-07 on (draft-06 documents ignore them). */
const SINCE_07 = ['if', 'then', 'else', '$comment']
/** Keywords that only exist from draft-06 on (draft-04 documents ignore them). */
const SINCE_06 = ['const', 'contains', 'propertyNames', '$id']
/** Keywords dropped after 2019-09. */
const UNTIL_2019 = ['additionalItems', '$recursiveRef', '$recursiveAnchor']

// `dependencies` is read in every dialect: 2019-09 split it into dependentRequired and
// dependentSchemas but never gave the name another meaning (the 2019-09 and 2020-12
// meta-schemas still describe it, deprecated), so a draft-07 document without `$schema` keeps
// its dependencies enforced instead of silently losing them.

/** True when `keyword` means nothing in `dialect` (it is then ignored like an unknown keyword). */
export function ignoredByDialect(keyword: string, dialect: Dialect): boolean {
  if (keyword === 'id') return dialect !== 'draft-04'
  if (isPre2019(dialect)) {
    if (SINCE_2019.includes(keyword) || SINCE_2020.includes(keyword)) return true
    if (dialect !== 'draft-07' && SINCE_07.includes(keyword)) return true
    return dialect === 'draft-04' && SINCE_06.includes(keyword)
  }
  if (dialect === '2019-09') return SINCE_2020.includes(keyword)
  return UNTIL_2019.includes(keyword)
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
  // OpenAPI 3.0 / draft-04 spellings read in every dialect (see README "Input dialects").
  'nullable',
  'id',
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

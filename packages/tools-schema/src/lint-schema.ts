import { dialectOf } from './internal/compile-schema'
import { type Dialect, ignoredByDialect, isPre2019, KNOWN_KEYWORDS } from './internal/dialect'
import { FORMAT_CHECKS } from './internal/formats'
import { joinPath } from './internal/path'
import { walkSchemas } from './internal/schema-walk'

/** One `lintSchema` finding: where, and what is ignored or risky. */
export interface SchemaLint {
  path: string
  message: string
}

/** Nested quantifiers such as `(a+)+` or `(a*)*` can backtrack exponentially on a crafted string. */
const NESTED_QUANTIFIER = /\((?:[^()\\]|\\.)*[+*}](?:[^()\\]|\\.)*\)[+*{]/

/**
 * Reports what the validator will ignore or what deserves a second look, without throwing: unknown
 * keywords (including `x-` extensions), keywords the document's dialect does not have (e.g.
 * `prefixItems` under draft-07), keywords beside `$ref` up to draft-07, the OpenAPI 3.0 /
 * draft-04 spellings read in every dialect (`nullable: true`, a boolean `exclusiveMinimum`
 * outside draft-04), `format` names that are
 * never asserted, a nested `$schema` (the root's sets the dialect),
 * and patterns with nested quantifiers (catastrophic backtracking risk). Run it on a schema that
 * `assertSupportedJsonSchema` accepts; malformed parts are skipped.
 */
export function lintSchema(schema: unknown): SchemaLint[] {
  let dialect: Dialect
  try {
    dialect = dialectOf(schema)
  } catch {
    dialect = '2020-12'
  }
  const out: SchemaLint[] = []
  for (const { node, path } of walkSchemas(schema)) {
    for (const key of Object.keys(node)) {
      const at = joinPath(path, key)
      if (!KNOWN_KEYWORDS.has(key)) out.push({ path: at, message: `unknown keyword "${key}" is ignored` })
      else if (ignoredByDialect(key, dialect) && !(key === 'additionalItems' && Array.isArray(node.items)))
        out.push({
          path: at,
          message: `"${key}" is not a ${dialect} keyword and is ignored (set $schema to use it)`,
        })
      else if (
        isPre2019(dialect) &&
        '$ref' in node &&
        ![
          '$ref',
          '$comment',
          '$id',
          'id',
          '$schema',
          '$defs',
          'definitions',
          'title',
          'description',
        ].includes(key)
      )
        out.push({ path: at, message: `"${key}" beside $ref is ignored in ${dialect}` })
      else if (typeof node[key] === 'boolean' && key.startsWith('exclusiveM') && dialect !== 'draft-04')
        out.push({ path: at, message: `boolean "${key}" is read as the draft-04 / OpenAPI 3.0 modifier` })
      else if (key === 'nullable' && node[key] === true)
        out.push({ path: at, message: '"nullable" is read as in OpenAPI 3.0: null is accepted here' })
    }
    if (path !== '$') {
      if ('$schema' in node)
        out.push({
          path: joinPath(path, '$schema'),
          message: 'a nested $schema is ignored (the root $schema sets the dialect)',
        })
    }
    if (typeof node.format === 'string' && FORMAT_CHECKS[node.format] === undefined)
      out.push({
        path: joinPath(path, 'format'),
        message: `format "${node.format}" is an annotation only (never asserted)`,
      })
    const patterns = typeof node.pattern === 'string' ? [[joinPath(path, 'pattern'), node.pattern]] : []
    if (typeof node.patternProperties === 'object' && node.patternProperties !== null)
      for (const source of Object.keys(node.patternProperties))
        patterns.push([joinPath(joinPath(path, 'patternProperties'), source), source])
    for (const [at, source] of patterns) {
      if (NESTED_QUANTIFIER.test(source!))
        out.push({
          path: at!,
          message: 'pattern has a nested quantifier and may backtrack catastrophically on long input',
        })
    }
  }
  return out
}

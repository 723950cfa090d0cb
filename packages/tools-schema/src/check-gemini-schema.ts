import { joinPath } from './internal/path'
import {
  GEMINI_DOCUMENTED_FORMATS,
  GEMINI_ENUM_TYPES,
  GEMINI_FIELDS,
  GEMINI_TYPES,
} from './internal/provider/gemini'
import { type ProviderSchemaProblem, unknownKeys, walkSchema } from './internal/provider/schema-problems'
import { isObject } from './internal/provider/schema-shape'

// `NULL` is in the SDKs' `Type` enum; `TYPE_UNSPECIFIED` is documented as "should not be used"
const TYPES = new Set([...Object.values(GEMINI_TYPES), 'NULL'])
const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/
/** Fields the API refuses on any type but `OBJECT` ("only allowed for OBJECT type"). */
const OBJECT_ONLY = ['properties', 'required'] as const

/**
 * Check a schema against Gemini's function-declaration `Schema` (its documented OpenAPI 3.0
 * subset): an `OBJECT` root; only the subset's fields (no `$ref`, `$defs`, `oneOf`, `allOf`,
 * `additionalProperties`, `const`); one upper-case `type` per node (or `anyOf`); `enum` of
 * strings on `STRING` or `INTEGER`; documented formats; `properties`/`required` on `OBJECT`
 * only; non-empty `properties` on a nested `OBJECT` and `items` on `ARRAY`; `required` naming
 * declared properties; top-level parameter names Gemini accepts. Each rule's source is listed in
 * the package README. Stack-safe; returns every problem found.
 */
export function checkGeminiSchema(schema: unknown): ProviderSchemaProblem[] {
  const problems: ProviderSchemaProblem[] = []
  const report = (path: string, message: string) => problems.push({ path, message })
  if (!isObject(schema) || schema.type !== 'OBJECT') report('$', 'the parameters must be an `OBJECT` schema')
  if (isObject(schema) && isObject(schema.properties)) {
    for (const name of Object.keys(schema.properties)) {
      if (!PARAMETER_NAME.test(name)) {
        report(joinPath('$.properties', name), 'parameter names must match ^[A-Za-z_][A-Za-z0-9_]{0,63}$')
      }
    }
  }
  walkSchema(schema, ({ node, path }) => {
    if (!isObject(node)) {
      report(path, 'a schema must be an object')
      return
    }
    for (const key of unknownKeys(node, GEMINI_FIELDS))
      report(joinPath(path, key), `\`${key}\` is not a Gemini schema field`)
    const type = node.type
    if (type === undefined) {
      if (!Array.isArray(node.anyOf)) report(path, 'every schema needs a `type` (or `anyOf`)')
    } else if (typeof type !== 'string' || !TYPES.has(type)) {
      report(joinPath(path, 'type'), `type must be one of ${[...TYPES].join(', ')}`)
    }
    if (node.nullable !== undefined && typeof node.nullable !== 'boolean')
      report(joinPath(path, 'nullable'), 'must be a boolean')
    if (node.enum !== undefined) {
      if (!GEMINI_ENUM_TYPES.has(String(type)))
        report(joinPath(path, 'enum'), '`enum` is only documented on `STRING` and `INTEGER`')
      if (!Array.isArray(node.enum) || !node.enum.every((v) => typeof v === 'string')) {
        report(joinPath(path, 'enum'), '`enum` values must be strings')
      }
    }
    if (
      node.format !== undefined &&
      !(GEMINI_DOCUMENTED_FORMATS[String(type)] ?? []).includes(String(node.format))
    ) {
      report(
        joinPath(path, 'format'),
        `format \`${String(node.format)}\` is not documented for ${String(type)}`,
      )
    }
    if (type !== 'OBJECT') {
      for (const key of OBJECT_ONLY) {
        if (node[key] !== undefined) report(joinPath(path, key), `\`${key}\` is only allowed on \`OBJECT\``)
      }
    } else {
      const props = isObject(node.properties) ? Object.keys(node.properties) : []
      // the root of a function without parameters is exempt: see the README (parameters "can be left unset")
      if (props.length === 0 && path !== '$') report(path, '`OBJECT` needs non-empty `properties`')
      const required = Array.isArray(node.required) ? node.required : []
      for (const name of required) {
        if (!props.includes(name))
          report(joinPath(path, 'required'), `\`${String(name)}\` is not a declared property`)
      }
    }
    if (type === 'ARRAY' && !isObject(node.items)) report(path, '`ARRAY` needs an `items` schema')
  })
  return problems
}

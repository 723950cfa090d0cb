import { joinPath } from './internal/path'
import {
  OPENAI_COMMON_KEYWORDS,
  OPENAI_FORMATS,
  OPENAI_TYPED_KEYWORDS,
} from './internal/provider/openai-strict'
import { type ProviderSchemaProblem, unknownKeys, walkSchema } from './internal/provider/schema-problems'
import { isObject, resolvePointer, typesOf } from './internal/provider/schema-shape'

export type { ProviderSchemaProblem } from './internal/provider/schema-problems'

/** OpenAI's documented size limits for a strict-mode schema. */
export const OPENAI_STRICT_LIMITS = Object.freeze({
  /** Object properties in the whole schema. */
  maxProperties: 5000,
  /** Levels of object nesting. */
  maxNestingDepth: 10,
  /** Enum values across all enums. */
  maxEnumValues: 1000,
  /** An enum with more string values than this has its total length capped… */
  largeEnumThreshold: 250,
  /** …to this many characters. */
  largeEnumMaxLength: 15_000,
  /** Characters of property names, definition names, enum and const values together. */
  maxTotalStringLength: 120_000,
})

const TYPE_NAMES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'])

/**
 * Check a schema against OpenAI's documented strict-mode rules (structured outputs and strict
 * function calling): an object root; a `type` (or `anyOf`/`$ref`) on every node; only the
 * supported keywords and formats; every object closed (`additionalProperties: false`) with
 * every property required; `$ref` alone and resolvable; nesting, property, enum and string
 * size limits ({@link OPENAI_STRICT_LIMITS}). Stack-safe; returns every problem found.
 */
export function checkOpenAiStrictSchema(schema: unknown): ProviderSchemaProblem[] {
  const problems: ProviderSchemaProblem[] = []
  const report = (path: string, message: string) => problems.push({ path, message })
  if (!isObject(schema) || schema.type !== 'object')
    report('$', 'the root must be an object schema (`type: "object"`)')
  let properties = 0
  let enumValues = 0
  let stringLength = 0
  let deepest = 0
  walkSchema(schema, ({ node, path, depth }) => {
    if (!isObject(node)) {
      report(path, 'a schema must be an object (boolean schemas are not supported)')
      return
    }
    if (typeof node.$ref === 'string') {
      if (Object.keys(node).length > 1) report(path, '`$ref` cannot have sibling keywords')
      if (resolvePointer(schema, node.$ref) === undefined)
        report(path, `\`$ref\` ${node.$ref} does not resolve`)
      return
    }
    const types = typesOf(node)
    if (types.length === 0 && !Array.isArray(node.anyOf))
      report(path, 'every schema needs a `type` (or `anyOf`)')
    for (const type of types)
      if (!TYPE_NAMES.has(type)) report(joinPath(path, 'type'), `unknown type \`${type}\``)
    const allowed = new Set(OPENAI_COMMON_KEYWORDS)
    for (const type of types) for (const key of OPENAI_TYPED_KEYWORDS[type] ?? []) allowed.add(key)
    for (const key of unknownKeys(node, allowed))
      report(joinPath(path, key), `\`${key}\` is not supported in strict mode`)
    if (node.format !== undefined && !OPENAI_FORMATS.has(String(node.format))) {
      report(joinPath(path, 'format'), `format \`${String(node.format)}\` is not supported`)
    }
    if (path === '$' && Array.isArray(node.anyOf)) report(path, 'the root must not be `anyOf`')
    if (types.includes('object')) {
      deepest = Math.max(deepest, depth)
      if (node.additionalProperties !== false) report(path, 'objects must set `additionalProperties: false`')
      const props = isObject(node.properties) ? Object.keys(node.properties) : []
      properties += props.length
      const required = new Set(Array.isArray(node.required) ? node.required : [])
      for (const name of props) {
        stringLength += name.length
        if (!required.has(name))
          report(joinPath(joinPath(path, 'properties'), name), 'every property must be required')
      }
    }
    for (const defs of ['$defs', 'definitions'] as const) {
      if (isObject(node[defs])) for (const name of Object.keys(node[defs])) stringLength += name.length
    }
    if (Array.isArray(node.enum)) {
      enumValues += node.enum.length
      const length = node.enum.reduce((sum: number, v) => sum + (typeof v === 'string' ? v.length : 0), 0)
      stringLength += length
      const strings = node.enum.filter((v) => typeof v === 'string').length
      if (
        strings > OPENAI_STRICT_LIMITS.largeEnumThreshold &&
        length > OPENAI_STRICT_LIMITS.largeEnumMaxLength
      ) {
        report(
          joinPath(path, 'enum'),
          `an enum of more than 250 strings may total at most 15,000 characters (${length})`,
        )
      }
    }
    if (typeof node.const === 'string') stringLength += node.const.length
  })
  if (deepest > OPENAI_STRICT_LIMITS.maxNestingDepth) {
    report(
      '$',
      `object nesting is ${deepest} levels; at most ${OPENAI_STRICT_LIMITS.maxNestingDepth} are allowed`,
    )
  }
  if (properties > OPENAI_STRICT_LIMITS.maxProperties) {
    report('$', `${properties} object properties; at most ${OPENAI_STRICT_LIMITS.maxProperties} are allowed`)
  }
  if (enumValues > OPENAI_STRICT_LIMITS.maxEnumValues) {
    report('$', `${enumValues} enum values; at most ${OPENAI_STRICT_LIMITS.maxEnumValues} are allowed`)
  }
  if (stringLength > OPENAI_STRICT_LIMITS.maxTotalStringLength) {
    report('$', `names and enum/const values total ${stringLength} characters; at most 120,000 are allowed`)
  }
  return problems
}

import { countNoun } from './count-noun'
import { describeScalar, describeType } from './describe'
import { isMultipleOf } from './multiple-of'
import type { SchemaNode } from './schema-node'
import {
  TYPE_ARRAY,
  TYPE_BOOLEAN,
  TYPE_INTEGER,
  TYPE_NULL,
  TYPE_NUMBER,
  TYPE_OBJECT,
  TYPE_STRING,
} from './schema-node'

/** Length of a string in Unicode code points (what minLength / maxLength count). */
export function codePointLength(text: string): number {
  let length = text.length
  for (let i = 0; i < text.length - 1; i++) {
    const code = text.charCodeAt(i)
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        length--
        i++
      }
    }
  }
  return length
}

/** The TYPE_* bits a JSON value satisfies (integers satisfy both number and integer). */
export function typeBitsOf(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return TYPE_STRING
    case 'boolean':
      return TYPE_BOOLEAN
    case 'number':
      return Number.isInteger(value) ? TYPE_NUMBER | TYPE_INTEGER : TYPE_NUMBER
    default:
      if (value === null) return TYPE_NULL
      return Array.isArray(value) ? TYPE_ARRAY : TYPE_OBJECT
  }
}

export function typeMessage(node: SchemaNode, value: unknown): string {
  const shown =
    node.types & TYPE_INTEGER &&
    !(node.types & TYPE_NUMBER) &&
    typeof value === 'number' &&
    Number.isFinite(value)
      ? ` ${value}`
      : ''
  return `expected ${node.typeNames.join(' or ')}, got ${describeType(value)}${shown}`
}

/** The violated numeric keyword's message, or undefined. */
export function numberMessage(node: SchemaNode, value: number): string | undefined {
  if (node.minimum !== undefined && value < node.minimum)
    return `expected number >= ${node.minimum}, got ${value}`
  if (node.maximum !== undefined && value > node.maximum)
    return `expected number <= ${node.maximum}, got ${value}`
  if (node.exclusiveMinimum !== undefined && value <= node.exclusiveMinimum)
    return `expected number > ${node.exclusiveMinimum}, got ${value}`
  if (node.exclusiveMaximum !== undefined && value >= node.exclusiveMaximum)
    return `expected number < ${node.exclusiveMaximum}, got ${value}`
  if (node.multipleOf !== undefined && !isMultipleOf(value, node.multipleOf))
    return `expected a multiple of ${node.multipleOf}, got ${value}`
  return undefined
}

/** The violated string keyword's message, or undefined. */
export function stringMessage(node: SchemaNode, value: string): string | undefined {
  if (node.minLength !== undefined || node.maxLength !== undefined) {
    // Cheap bounds first: code points ≤ UTF-16 units ≤ 2 × code points.
    const length = codePointLength(value)
    if (node.minLength !== undefined && length < node.minLength)
      return `expected at least ${countNoun(node.minLength, 'character')}, got ${length}`
    if (node.maxLength !== undefined && length > node.maxLength)
      return `expected at most ${countNoun(node.maxLength, 'character')}, got ${length}`
  }
  if (node.pattern !== undefined) {
    if (!node.pattern.test(value))
      return `expected string matching pattern ${JSON.stringify(node.pattern.source)}`
  }
  if (node.format !== undefined && !node.format(value)) return `expected format "${node.formatName}"`
  return undefined
}

export function enumMessage(node: SchemaNode): string {
  const shown = node.enumValues!.slice(0, 50).map(describeScalar).join(', ')
  return `expected one of ${shown}${node.enumValues!.length > 50 ? ', …' : ''}`
}

export function constMessage(node: SchemaNode): string {
  return `expected constant ${describeScalar(node.constValue)}`
}

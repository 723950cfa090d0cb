import type { SchemaViolation } from '../types'
import { describeScalar } from './describe'
import type { PathNode } from './path'

/** Where violations go: the result list, or a oneOf branch trial that only counts. */
export interface Sink {
  readonly violations: SchemaViolation[] | undefined
  count: number
  first: SchemaViolation | undefined
}

/** A generated validator for a bounded schema subtree; reports into `sink`. */
export type FastCheck = (value: unknown, path: PathNode | undefined, sink: Sink) => void

/** Checker kinds (small integers for fast switching). */
export const KIND_ANY = 0
export const KIND_STRING = 1
export const KIND_NUMBER = 2
export const KIND_INTEGER = 3
export const KIND_BOOLEAN = 4
export const KIND_NULL = 5
export const KIND_SCALAR_ENUM = 6
export const KIND_ARRAY = 7
export const KIND_OBJECT = 8
export const KIND_ONE_OF = 9

/** A pre-analysed schema node: everything validation needs, computed once. */
export class Checker {
  kind = KIND_ANY
  /** True when the value can be checked without descending (scalars, any). */
  inline = true
  typeName = ''
  enumSet: Set<unknown> | undefined = undefined
  enumMessage = ''
  hasConst = false
  constValue: unknown = undefined
  constMessage = ''
  /** Declared property names, their checkers, and whether each is required. */
  keys: string[] = []
  props: Checker[] = []
  required: boolean[] = []
  /** Keys that also exist on Object.prototype (need an own-property check). */
  shadowed: boolean[] = []
  propMap: Map<string, Checker> | undefined = undefined
  closed = false
  items: Checker | undefined = undefined
  branches: Checker[] = []
  /** Subtree height and node count (capped), used to decide whether to generate code. */
  height = 1
  size = 1
  /** Generated validator for this subtree: undefined = not tried yet, null = unavailable. */
  fast: FastCheck | null | undefined = undefined
}

export function setEnum(checker: Checker, values: readonly unknown[]): void {
  checker.enumSet = new Set(values)
  checker.enumMessage = `expected one of ${values.map(describeScalar).join(', ')}`
}

export function setConst(checker: Checker, value: unknown): void {
  checker.hasConst = true
  checker.constValue = value
  checker.constMessage = `expected constant ${describeScalar(value)}`
}

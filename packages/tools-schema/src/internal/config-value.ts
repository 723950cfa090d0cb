/**
 * The two walks around validating a config value. `prepareConfigValue` copies the plain objects
 * and arrays the spec describes, drops keys set to `undefined` (they mean "absent", as in every
 * hand validator before) and puts each `host` value through its `is` check, leaving a marker in
 * its place for the JSON validator. `fillConfigDefaults` then writes the defaults of absent
 * fields, puts the host values back and freezes the copies. Both follow the spec, not the value,
 * so their depth is bounded by the spec's.
 */

import { compileJsonSchemaValidator, type SchemaValidator } from '../compile-validator'
import type { HostSchemaSpec } from '../config-spec'
import type { JsonSchemaNode, SchemaViolation } from '../types'
import { hostMarkerOf } from './compile-config-spec'
import { describeType, isPlainObject, setOwn } from './describe'
import { joinPath } from './path'

type Container = Record<string, unknown> | unknown[]

/** A host value taken out for validation, and where it goes back. */
interface HostSlot {
  readonly container: Container
  readonly key: string | number
  readonly original: unknown
}

/** A value copied for validation. */
export interface PreparedConfig {
  readonly value: unknown
  /** Host values their `is` refused (the JSON validator never sees them). */
  readonly problems: readonly SchemaViolation[]
  readonly slots: readonly HostSlot[]
  /** The containers copied, frozen once filled. */
  readonly created: Container[]
}

/** The nodes `node` may stand for: itself, or the branches of its `oneOf` / `anyOf`, flattened. */
function alternatives(nodes: readonly JsonSchemaNode[]): JsonSchemaNode[] {
  const out: JsonSchemaNode[] = []
  const stack = [...nodes].reverse()
  while (stack.length > 0) {
    const node = stack.pop()!
    const branches = node.oneOf ?? node.anyOf
    if (branches === undefined) out.push(node)
    else for (let i = branches.length - 1; i >= 0; i--) stack.push(branches[i] as JsonSchemaNode)
  }
  return out
}

function childOf(node: JsonSchemaNode, key: string): JsonSchemaNode | undefined {
  if (node.properties !== undefined && Object.hasOwn(node.properties, key))
    return node.properties[key] as JsonSchemaNode
  const extra = node.additionalProperties
  return typeof extra === 'object' && extra !== null ? (extra as JsonSchemaNode) : undefined
}

const NOT_HOST = Symbol('not a host')

/** Copies `input` along `root` (see the module comment). */
export function prepareConfigValue(
  input: unknown,
  root: JsonSchemaNode,
  hosts: ReadonlyMap<string, HostSchemaSpec>,
): PreparedConfig {
  const problems: SchemaViolation[] = []
  const slots: HostSlot[] = []
  const created: Container[] = []
  // The original of the host value `walk` just replaced by its marker, read by the caller.
  let taken: unknown = NOT_HOST

  function walk(value: unknown, nodes: readonly JsonSchemaNode[], path: string): unknown {
    const options = alternatives(nodes)
    const marks = options.map(hostMarkerOf).filter((mark) => mark !== undefined)
    if (marks.length > 0) {
      const accepted = marks.find((mark) => hosts.get(mark)!.is(value))
      if (accepted !== undefined || marks.length === options.length) {
        if (accepted === undefined) {
          const wanted = marks.map((mark) => hosts.get(mark)!.description).join(' or ')
          problems.push({ path, message: `expected ${wanted}, got ${describeType(value)}` })
        }
        taken = value
        return accepted ?? marks[0]
      }
    }
    if (Array.isArray(value)) {
      const items = options.flatMap((node) =>
        typeof node.items === 'object' && !Array.isArray(node.items) ? [node.items as JsonSchemaNode] : [],
      )
      if (items.length === 0) return value
      const copy: unknown[] = []
      created.push(copy)
      for (let i = 0; i < value.length; i++)
        copy.push(place(copy, i, walk(value[i], items, joinPath(path, i))))
      return copy
    }
    if (!isPlainObject(value)) return value
    const copy: Record<string, unknown> = {}
    created.push(copy)
    for (const key of Object.keys(value)) {
      const member = value[key]
      if (member === undefined) continue
      const children = options.map((node) => childOf(node, key)).filter((child) => child !== undefined)
      const walked = children.length === 0 ? member : walk(member, children, joinPath(path, key))
      setOwn(copy, key, place(copy, key, walked))
    }
    return copy
  }

  function place(container: Container, key: string | number, walked: unknown): unknown {
    if (taken !== NOT_HOST) slots.push({ container, key, original: taken })
    taken = NOT_HOST
    return walked
  }

  return { value: walk(input, [root], '$'), problems, slots, created }
}

const branchValidators = new WeakMap<JsonSchemaNode, SchemaValidator>()

function accepts(node: JsonSchemaNode, value: unknown): boolean {
  let validator = branchValidators.get(node)
  if (validator === undefined) {
    validator = compileJsonSchemaValidator(node)
    branchValidators.set(node, validator)
  }
  return validator(value).length === 0
}

/** A default's own copy (defaults are shared and frozen; their nested defaults still fill in). */
function thaw(value: unknown, created: Container[]): unknown {
  if (Array.isArray(value)) {
    const copy = value.map((item) => thaw(item, created))
    created.push(copy)
    return copy
  }
  if (typeof value !== 'object' || value === null) return value
  const copy: Record<string, unknown> = {}
  for (const [key, member] of Object.entries(value)) setOwn(copy, key, thaw(member, created))
  created.push(copy)
  return copy
}

/**
 * Writes the defaults of absent fields into a prepared value the validator accepted (into the
 * first branch of a `oneOf` / `anyOf` that accepts it), puts the host values back and freezes
 * every copied container. Returns the finished value.
 */
export function fillConfigDefaults(prepared: PreparedConfig, root: JsonSchemaNode): unknown {
  const created = prepared.created
  const stack: [unknown, JsonSchemaNode][] = [[prepared.value, root]]
  while (stack.length > 0) {
    const [value, node] = stack.pop()!
    const branches = node.oneOf ?? node.anyOf
    if (branches !== undefined) {
      const branch = (branches as JsonSchemaNode[]).find((candidate) => accepts(candidate, value))
      if (branch !== undefined) stack.push([value, branch])
      continue
    }
    if (Array.isArray(value)) {
      if (typeof node.items === 'object' && !Array.isArray(node.items))
        for (const item of value) stack.push([item, node.items as JsonSchemaNode])
      continue
    }
    if (!isPlainObject(value)) continue
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      const field = child as JsonSchemaNode
      if (!Object.hasOwn(value, key) && field.default !== undefined)
        setOwn(value, key, thaw(field.default, created))
    }
    for (const key of Object.keys(value)) {
      const child = childOf(node, key)
      if (child !== undefined) stack.push([value[key], child])
    }
  }
  for (const { container, key, original } of prepared.slots) {
    if (Array.isArray(container)) container[key as number] = original
    else setOwn(container, key as string, original)
  }
  for (const container of created) Object.freeze(container)
  return prepared.value
}

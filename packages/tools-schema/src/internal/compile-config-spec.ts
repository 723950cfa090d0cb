/**
 * Compiles a config spec (the schema DSL plus `record` and `host`) through the DSL compiler: each
 * `record` and `host` node is swapped for a unique marker spec, the DSL compiles (and checks) the
 * rest, and the markers are then replaced in the compiled JSON Schema. Two trees come out: the
 * one the validator runs (a `host` node stays a marker the value walk substitutes) and the one a
 * user reads (a `host` node is a description-only node).
 */
import type { ConfigValueSpec, HostSchemaSpec } from '../config-spec'
import { SchemaDefinitionError } from '../errors'
import type { ValueSchemaSpec } from '../schema-spec'
import type { JsonSchemaNode } from '../types'
import { valueSchemaSpecToJsonSchema } from '../value-schema-spec-to-json-schema'
import { joinPath } from './path'
import { readSpecArray, readSpecRecord } from './read-spec'

/** A compiled config spec. */
export interface CompiledConfigSpec {
  /** What the validator runs: `host` fields are `{ const: <marker> }`. */
  readonly validation: JsonSchemaNode
  /** What a user reads: `host` fields are description-only nodes. */
  readonly published: JsonSchemaNode
  /** Marker string → the `host` spec it stands for. */
  readonly hosts: ReadonlyMap<string, HostSchemaSpec>
}

/** Config specs are written by hand and shallow; past this a spec is refused, not walked. */
const MAX_CONFIG_SPEC_DEPTH = 64
const HOST_KEYS = new Set(['type', 'description', 'title', 'is', 'required'])

// A nonce keeps a user's string from ever equalling a marker.
const MARK = `\u0000dsh-config-${Math.random().toString(36).slice(2)}:`

/** True when `node` is a `host` marker of the validation tree. */
export function hostMarkerOf(node: JsonSchemaNode): string | undefined {
  return typeof node.const === 'string' && node.const.startsWith(MARK) ? node.const : undefined
}

interface Swap {
  readonly kind: 'host' | 'record'
  readonly host?: HostSchemaSpec
  /** The record's annotations compiled as an open object, and its values spec compiled. */
  readonly record?: { readonly shell: JsonSchemaNode; readonly values: JsonSchemaNode }
}

class Compiler {
  readonly swaps = new Map<string, Swap>()

  compile(spec: unknown, path: string): JsonSchemaNode {
    const dsl = this.toDsl(spec, path, 0)
    try {
      return valueSchemaSpecToJsonSchema(dsl as ValueSchemaSpec)
    } catch (error) {
      // A part compiled on its own reports paths from its own root: re-anchor them.
      if (path === '$' || !(error instanceof SchemaDefinitionError)) throw error
      throw new SchemaDefinitionError(path + error.path.slice(1), error.message.slice(error.path.length + 2))
    }
  }

  /** The spec with `record` / `host` nodes replaced by marker specs (a field keeps `required`). */
  private toDsl(spec: unknown, path: string, depth: number): unknown {
    if (depth > MAX_CONFIG_SPEC_DEPTH)
      throw new SchemaDefinitionError(path, `config spec nested deeper than ${MAX_CONFIG_SPEC_DEPTH} levels`)
    const entries = new Map(readSpecRecord(spec, path, 'config spec'))
    const type = entries.get('type')
    if (type === 'host') return this.marker({ kind: 'host', host: readHost(entries, path) }, entries)
    if (type === 'record') {
      const { values, required: _, ...annotations } = Object.fromEntries(entries)
      const shell = this.compile({ ...annotations, type: 'object', additionalProperties: true }, path)
      const compiled = this.compile(values, joinPath(path, 'values'))
      return this.marker({ kind: 'record', record: { shell, values: compiled } }, entries)
    }
    const out: Record<string, unknown> = Object.fromEntries(entries)
    if (type === 'object' && entries.has('properties')) {
      const at = joinPath(path, 'properties')
      out.properties = Object.fromEntries(
        readSpecRecord(entries.get('properties'), at, 'properties').map(([name, child]) => [
          name,
          this.toDsl(child, joinPath(at, name), depth + 1),
        ]),
      )
    }
    if (type === 'array' && entries.has('items'))
      out.items = this.toDsl(entries.get('items'), joinPath(path, 'items'), depth + 1)
    for (const combinator of ['oneOf', 'anyOf'] as const) {
      if (!entries.has(combinator)) continue
      const at = joinPath(path, combinator)
      out[combinator] = readSpecArray(entries.get(combinator), at, combinator).map((branch, i) =>
        this.toDsl(branch, joinPath(at, i), depth + 1),
      )
    }
    return out
  }

  private marker(swap: Swap, entries: Map<string, unknown>): unknown {
    const mark = `${MARK}${this.swaps.size}`
    this.swaps.set(mark, swap)
    return entries.has('required')
      ? { type: 'string', const: mark, required: entries.get('required') }
      : { type: 'string', const: mark }
  }
}

function readHost(entries: Map<string, unknown>, path: string): HostSchemaSpec {
  for (const key of entries.keys()) {
    if (!HOST_KEYS.has(key))
      throw new SchemaDefinitionError(
        joinPath(path, key),
        `unknown keyword "${key}" for host spec (a host value has no JSON default or bounds)`,
      )
  }
  const description = entries.get('description')
  if (typeof description !== 'string' || description === '')
    throw new SchemaDefinitionError(joinPath(path, 'description'), 'a host spec needs a description')
  if (typeof entries.get('is') !== 'function')
    throw new SchemaDefinitionError(joinPath(path, 'is'), 'a host spec needs an `is` function')
  const title = entries.get('title')
  if (title !== undefined && typeof title !== 'string')
    throw new SchemaDefinitionError(joinPath(path, 'title'), 'title must be a string')
  return Object.freeze(Object.fromEntries(entries)) as unknown as HostSchemaSpec
}

/** Rebuilds a compiled tree with every marker replaced (`publish`: hosts as description-only nodes). */
function replaceMarkers(
  node: JsonSchemaNode,
  swaps: ReadonlyMap<string, Swap>,
  publish: boolean,
): JsonSchemaNode {
  const mark = hostMarkerOf(node)
  const swap = mark === undefined ? undefined : swaps.get(mark)
  if (swap?.kind === 'host') {
    if (!publish) return node
    const { title, description } = swap.host!
    return Object.freeze(title === undefined ? { description } : { title, description })
  }
  if (swap?.kind === 'record') {
    const { shell, values } = swap.record!
    return Object.freeze({ ...shell, additionalProperties: replaceMarkers(values, swaps, publish) })
  }
  const out: JsonSchemaNode = { ...node }
  if (node.properties !== undefined) {
    const properties: Record<string, JsonSchemaNode> = {}
    for (const [name, child] of Object.entries(node.properties))
      Object.defineProperty(properties, name, {
        value: replaceMarkers(child as JsonSchemaNode, swaps, publish),
        enumerable: true,
      })
    out.properties = Object.freeze(properties)
  }
  if (node.items !== undefined && typeof node.items === 'object' && !Array.isArray(node.items))
    out.items = replaceMarkers(node.items as JsonSchemaNode, swaps, publish)
  for (const combinator of ['oneOf', 'anyOf'] as const) {
    const branches = node[combinator]
    if (branches !== undefined)
      out[combinator] = Object.freeze(
        branches.map((branch) => replaceMarkers(branch as JsonSchemaNode, swaps, publish)),
      ) as JsonSchemaNode[]
  }
  return Object.freeze(out)
}

/**
 * Compiles a config spec. Throws `SchemaDefinitionError` (with the spec path) for everything the
 * DSL refuses, plus a `host` spec without a description or `is` function or with another keyword,
 * and a spec nested deeper than 64 levels.
 */
export function compileConfigSpec(spec: ConfigValueSpec): CompiledConfigSpec {
  const compiler = new Compiler()
  const compiled = compiler.compile(spec, '$')
  const hosts = new Map<string, HostSchemaSpec>()
  for (const [mark, swap] of compiler.swaps) if (swap.host !== undefined) hosts.set(mark, swap.host)
  return {
    validation: replaceMarkers(compiled, compiler.swaps, false),
    published: replaceMarkers(compiled, compiler.swaps, true),
    hosts,
  }
}

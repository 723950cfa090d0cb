/**
 * A config union such as `sandbox: boolean | { network, … }` fails as one summary at the union
 * (`expected at least one of 2 anyOf branches to match …`). When the value's JSON type admits
 * exactly one branch, the user meant that branch: its own violations, at their own paths
 * (`$.sandbox.network: expected one of "none", "host"`), say more. Each step descends into a
 * strict subtree of the schema, so the rewriting ends.
 */
import { compileJsonSchemaValidator, type SchemaValidator } from '../compile-validator'
import type { JsonSchemaNode, SchemaViolation } from '../types'
import { describeType, isPlainObject } from './describe'
import { parsePath } from './parse-path'

const validators = new WeakMap<JsonSchemaNode, SchemaValidator>()

function violationsOf(node: JsonSchemaNode, value: unknown): SchemaViolation[] {
  let validator = validators.get(node)
  if (validator === undefined) {
    validator = compileJsonSchemaValidator(node)
    validators.set(node, validator)
  }
  return validator(value)
}

/** Whether `node`'s `type` (absent: any) admits the JSON type of `value`. */
function admits(node: JsonSchemaNode, value: unknown): boolean {
  if (node.type === undefined) return true
  const kind = describeType(value)
  const types = Array.isArray(node.type) ? node.type : [node.type]
  return types.some((type) => type === kind || (type === 'integer' && kind === 'number'))
}

/** The one branch of a union node the value's type admits, or `undefined`. */
function onlyBranch(node: JsonSchemaNode, value: unknown): JsonSchemaNode | undefined {
  const branches = (node.anyOf ?? node.oneOf) as JsonSchemaNode[] | undefined
  if (branches === undefined) return undefined
  const admitted = branches.filter((branch) => admits(branch, value))
  return admitted.length === 1 ? admitted[0] : undefined
}

/** The schema node and value at `keys` below `node`, through unions their value's type decides. */
function locate(
  node: JsonSchemaNode,
  value: unknown,
  keys: readonly (string | number)[],
): { node: JsonSchemaNode; value: unknown } | undefined {
  let current: JsonSchemaNode | undefined = node
  let at = value
  for (const key of keys) {
    while (current !== undefined && (current.anyOf ?? current.oneOf) !== undefined)
      current = onlyBranch(current, at)
    if (current === undefined) return undefined
    if (typeof key === 'number' && Array.isArray(at)) {
      current = typeof current.items === 'object' ? (current.items as JsonSchemaNode) : undefined
      at = at[key]
    } else if (typeof key === 'string' && isPlainObject(at)) {
      const declared = current.properties?.[key]
      const extra = current.additionalProperties
      current = (declared ?? (typeof extra === 'object' ? extra : undefined)) as JsonSchemaNode | undefined
      at = at[key]
    } else return undefined
    if (current === undefined) return undefined
  }
  return { node: current, value: at }
}

/** Replaces each union summary whose value's type picks one branch by that branch's violations. */
export function narrowUnionViolations(
  violations: readonly SchemaViolation[],
  root: JsonSchemaNode,
  value: unknown,
): SchemaViolation[] {
  const out: SchemaViolation[] = []
  for (const violation of violations) {
    const found = locate(root, value, parsePath(violation.path))
    const branch = found === undefined ? undefined : onlyBranch(found.node, found.value)
    const inner = branch === undefined ? [] : violationsOf(branch, found!.value)
    if (inner.length === 0) {
      out.push(violation)
      continue
    }
    for (const narrowed of narrowUnionViolations(inner, branch!, found!.value))
      out.push({ path: violation.path + narrowed.path.slice(1), message: narrowed.message })
  }
  return out
}

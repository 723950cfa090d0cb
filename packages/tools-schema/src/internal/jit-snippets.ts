import { isScalarValue } from './json-equal'
import {
  type SchemaNode,
  TYPE_ARRAY,
  TYPE_BOOLEAN,
  TYPE_INTEGER,
  TYPE_NULL,
  TYPE_NUMBER,
  TYPE_OBJECT,
  TYPE_STRING,
} from './schema-node'

// Pieces of generated JavaScript text that several generator methods share. Names in the text
// (`GP`, `PO`, `H`, `DV`, `B`) are the bindings of jit-runtime.ts.

/**
 * `Object.getPrototypeOf(v)` after a `"length" in v` probe. The probe never runs an accessor
 * (`in` only asks whether the member exists; only a Proxy's `has` trap runs, as its
 * `getPrototypeOf` trap would anyway), and it records `v`'s hidden class, which lets V8 fold the
 * prototype read into a constant: without it the call costs more than all other checks of a
 * small object together (measured with bench/schema-full.ts, recursive tree).
 */
export function prototypeOf(v: string): string {
  return `("length" in ${v}, GP(${v}))`
}

/** True when `v` (an object, not an array) has Object's or a null prototype, as JSON objects do. */
export function isJsonObject(v: string): string {
  return `(("length" in ${v}, PO(${v})))`
}

/** A declared member read as an ordinary property; inherited `Object.prototype` names count as absent. */
export function readMember(v: string, key: string): string {
  const quoted = JSON.stringify(key)
  return key in Object.prototype
    ? `(H.call(${v}, ${quoted}) ? ${v}[${quoted}] : undefined)`
    : `${v}[${quoted}]`
}

/** True when `enum` or `const` admits only scalars (the value is then a JSON scalar). */
export function demandsScalar(node: SchemaNode): boolean {
  return (
    (node.constSet !== undefined && isScalarValue(node.constValue)) ||
    node.enumValues?.every(isScalarValue) === true
  )
}

/**
 * Reads an undeclared member without running an accessor: the interpreter reports accessors
 * among undeclared members as non-JSON, so the generated check must not pass them. `DV` returns
 * `B` (the bail sentinel) for an accessor, which fails the check and lets the interpreter explain.
 */
export function readUndeclared(m: string, v: string, k: string, fail: string): string {
  return `const ${m} = DV(${v}, ${k});
if (${m} === B) break ${fail};
`
}

export function typeCondition(types: number, v: string): string {
  const parts: string[] = []
  if (types & TYPE_STRING) parts.push(`typeof ${v} === "string"`)
  if (types & TYPE_NUMBER) parts.push(`(typeof ${v} === "number" && ${v} - ${v} === 0)`)
  else if (types & TYPE_INTEGER) parts.push(`Number.isInteger(${v})`)
  if (types & TYPE_BOOLEAN) parts.push(`typeof ${v} === "boolean"`)
  if (types & TYPE_NULL) parts.push(`${v} === null`)
  if (types & TYPE_ARRAY) parts.push(`Array.isArray(${v})`)
  if (types & TYPE_OBJECT) parts.push(`(typeof ${v} === "object" && ${v} !== null && !Array.isArray(${v}))`)
  return parts.join(' || ')
}

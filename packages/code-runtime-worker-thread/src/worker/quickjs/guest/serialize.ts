/**
 * Strict JSON serialization inside the engine, for run results and tool-call arguments: an
 * explicit stack (deep values cannot overflow it), no `toJSON`, plain objects and dense arrays
 * only, undefined-valued properties omitted; anything else is refused with the path of the
 * offending value. The same rules as the node:vm kernel's serializer.
 */
import { dataObject, intrinsics as I } from './intrinsics'

/** Why a value is not JSON (success is the JSON text itself, so a polluted prototype cannot fake it). */
export interface NotJson {
  readonly invalid: string
}

interface Frame {
  readonly value: Record<string | number, unknown>
  readonly array: boolean
  readonly keys: readonly string[] | null
  readonly length: number
  index: number
  wrote: boolean
}

function pathOf(frames: readonly Frame[], top: number): string {
  let path = '$'
  for (let i = 0; i <= top; i++) {
    const f = frames[i] as Frame
    if (f.array) path += '[' + (f.index - 1) + ']'
    else {
      const k = (f.keys as readonly string[])[f.index - 1] as string
      path += I.apply(I.regexpExec, I.identifierPattern, [k]) ? '.' + k : '[' + I.JSONStringify(k) + ']'
    }
  }
  return path
}

/**
 * Serialize `root` as strict JSON (see the module comment). Never throws for a value's shape; a
 * refusal reads `<refusal>: <problem> at <path>`.
 */
export function serialize(root: unknown, refusal: string): string | NotJson {
  const out: string[] = []
  let n = 0
  const frames: Frame[] = []
  let top = -1
  const active = new I.Set<object>()
  const invalid = (path: string, problem: string): NotJson =>
    dataObject('invalid', refusal + ': ' + problem + ' at ' + path)
  const visit = (value: unknown): string | null => {
    switch (typeof value) {
      case 'string':
        out[n++] = I.JSONStringify(value)
        return null
      case 'number':
        if (!I.isFinite(value)) return 'a non-finite number'
        out[n++] = I.JSONStringify(value)
        return null
      case 'boolean':
        out[n++] = value ? 'true' : 'false'
        return null
      case 'undefined':
        return 'undefined'
      case 'bigint':
        return 'a BigInt'
      case 'symbol':
        return 'a symbol'
      case 'function':
        return 'a function'
    }
    if (value === null) {
      out[n++] = 'null'
      return null
    }
    const object = value as Record<string | number, unknown>
    if (I.apply(I.setHas, active, [object])) return 'a cycle'
    if (I.isArray(object)) {
      out[n++] = '['
      frames[++top] = {
        value: object,
        array: true,
        keys: null,
        length: object.length,
        index: 0,
        wrote: false,
      }
    } else {
      const proto: unknown = I.getPrototypeOf(object)
      if (proto !== I.ObjectProto && proto !== null) return 'a non-plain object'
      const own = I.keys(object)
      out[n++] = '{'
      frames[++top] = { value: object, array: false, keys: own, length: own.length, index: 0, wrote: false }
    }
    I.apply(I.setAdd, active, [object])
    return null
  }
  let problem = visit(root)
  if (problem !== null) return invalid('$', problem)
  while (top >= 0) {
    const f = frames[top] as Frame
    if (f.index >= f.length) {
      out[n++] = f.array ? ']' : '}'
      I.apply(I.setDelete, active, [f.value])
      top--
      continue
    }
    const i = f.index++
    if (f.array) {
      if (!I.hasOwn(f.value, i)) return invalid(pathOf(frames, top), 'an array hole')
      if (i > 0) out[n++] = ','
      problem = visit(f.value[i])
    } else {
      const key = (f.keys as readonly string[])[i] as string
      const item = f.value[key]
      if (item === undefined) continue
      if (f.wrote) out[n++] = ','
      f.wrote = true
      out[n++] = I.JSONStringify(key) + ':'
      problem = visit(item)
    }
    if (problem !== null) return invalid(pathOf(frames, top), problem)
  }
  return I.apply(I.arrayJoin, out, ['']) as string
}

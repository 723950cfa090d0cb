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

/** Why a primitive is not JSON, by the code `primitiveJson` returns for it. */
const PROBLEMS = ['a non-finite number', 'undefined', 'a BigInt', 'a symbol', 'a function'] as const

/**
 * The JSON text of a primitive (`null` included), the index in PROBLEMS of why it is not JSON,
 * or `undefined` for an object. A finite number's JSON text is its `String` form (the spec
 * defines it so), which costs the engine much less than a call to `JSON.stringify`.
 */
function primitiveJson(value: unknown): string | number | undefined {
  switch (typeof value) {
    case 'string':
      return I.JSONStringify(value)
    case 'number':
      return I.isFinite(value) ? '' + value : 0
    case 'boolean':
      return value ? 'true' : 'false'
    case 'undefined':
      return 1
    case 'bigint':
      return 2
    case 'symbol':
      return 3
    case 'function':
      return 4
  }
  return value === null ? 'null' : undefined
}

/**
 * Keys' JSON text, remembered: programs pass the same few keys call after call, and a lookup
 * costs the engine a fraction of a `JSON.stringify` call. Bounded, so a program with many keys
 * cannot grow it: past the bound, keys are quoted each time.
 */
const quotedKeys: Record<string, string> = I.create(null)
let quotedCount = 0
const QUOTED_KEYS_MAX = 256
const QUOTED_KEY_LENGTH_MAX = 64

function quoteKey(key: string): string {
  const known = quotedKeys[key]
  if (known !== undefined) return known
  const quoted = I.JSONStringify(key)
  if (quotedCount < QUOTED_KEYS_MAX && key.length <= QUOTED_KEY_LENGTH_MAX) {
    quotedKeys[key] = quoted
    quotedCount++
  }
  return quoted
}

/**
 * Output is built by appending to a string (the engine grows it in place, and a call through
 * `Reflect.apply` to `join` costs more than a small result); past this length the text moves to
 * a list of chunks joined once at the end, which stays cheaper for large results.
 */
const CHUNK_LENGTH = 65_536

/**
 * Open objects are found by scanning the stack while it is this shallow (most arguments are),
 * which costs less than keeping a Set; deeper, a Set keeps each check constant.
 */
const SCAN_DEPTH = 16

/**
 * Serialize `root` as strict JSON (see the module comment). Never throws for a value's shape; a
 * refusal reads `<refusal>: <problem> at <path>`. Each property is read once, in order.
 */
export function serialize(root: unknown, refusal: string): string | NotJson {
  const first = primitiveJson(root)
  if (typeof first === 'string') return first
  if (first !== undefined) return invalid(refusal, '$', PROBLEMS[first] as string)
  if (I.isArray(root)) return serializeFrom('', [], -1, root as Record<number, unknown>, refusal)
  return serializeFlat(root as Record<string, unknown>, refusal)
}

/**
 * A plain object at the root, written without the general walk's frames while its values are
 * primitives — the usual shape of tool arguments (`{ path, limit }`), for which the walk's
 * bookkeeping cost the engine more than the writing. At the first value that is an object it
 * hands the work, as far as it got, to {@link serializeFrom}: no property is read twice.
 */
function serializeFlat(root: Record<string, unknown>, refusal: string): string | NotJson {
  const proto: unknown = I.getPrototypeOf(root)
  if (proto !== I.ObjectProto && proto !== null) return invalid(refusal, '$', 'a non-plain object')
  const keys = I.keys(root)
  const length = keys.length
  let out = '{'
  let wrote = false
  for (let i = 0; i < length; i++) {
    const key = keys[i] as string
    const item = root[key]
    if (item === undefined) continue
    if (wrote) out += ','
    wrote = true
    out += quoteKey(key) + ':'
    const text = primitiveJson(item)
    if (typeof text === 'string') {
      out += text
      continue
    }
    const frame: Frame = { value: root, array: false, keys, length, index: i + 1, wrote }
    if (text !== undefined) return invalid(refusal, pathOf([frame], 0), PROBLEMS[text] as string)
    return serializeFrom(out, [frame], 0, item as Record<string, unknown>, refusal)
  }
  return out + '}'
}

/**
 * The general walk, resumed: `written` is the text so far, `frames[0..openTop]` the objects
 * still open (none: -1), and `start` the object to open now (the root, when none is open).
 */
function serializeFrom(
  written: string,
  frames: Frame[],
  openTop: number,
  start: Record<string | number, unknown>,
  refusal: string,
): string | NotJson {
  let out = written
  const chunks: string[] = []
  let c = 0
  let top = openTop
  let active: Set<object> | undefined
  let object = start
  for (;;) {
    // Open `object` (the root, or a child the loop below found).
    if (top >= 0) {
      let open = false
      if (active !== undefined) open = I.apply(I.setHas, active, [object]) as boolean
      else for (let i = 0; i <= top && !open; i++) open = (frames[i] as Frame).value === object
      if (open) return invalid(refusal, pathOf(frames, top), 'a cycle')
    }
    if (I.isArray(object)) {
      out += '['
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
      if (proto !== I.ObjectProto && proto !== null)
        return invalid(refusal, pathOf(frames, top), 'a non-plain object')
      const own = I.keys(object)
      out += '{'
      frames[++top] = { value: object, array: false, keys: own, length: own.length, index: 0, wrote: false }
    }
    if (active !== undefined) I.apply(I.setAdd, active, [object])
    else if (top >= SCAN_DEPTH) {
      active = new I.Set<object>()
      for (let i = 0; i <= top; i++) I.apply(I.setAdd, active, [(frames[i] as Frame).value])
    }
    // Write items until one is an object to open, or the root is closed.
    let next: Record<string | number, unknown> | undefined
    while (next === undefined) {
      if (top < 0) {
        if (c === 0) return out
        chunks[c++] = out
        return I.apply(I.arrayJoin, chunks, ['']) as string
      }
      if (out.length >= CHUNK_LENGTH) {
        chunks[c++] = out
        out = ''
      }
      const f = frames[top] as Frame
      if (f.index >= f.length) {
        out += f.array ? ']' : '}'
        if (active !== undefined) I.apply(I.setDelete, active, [f.value])
        top--
        continue
      }
      const i = f.index++
      let item: unknown
      if (f.array) {
        if (!I.hasOwn(f.value, i)) return invalid(refusal, pathOf(frames, top), 'an array hole')
        if (i > 0) out += ','
        item = f.value[i]
      } else {
        const key = (f.keys as readonly string[])[i] as string
        item = f.value[key]
        if (item === undefined) continue
        if (f.wrote) out += ','
        f.wrote = true
        out += quoteKey(key) + ':'
      }
      const text = primitiveJson(item)
      if (typeof text === 'string') out += text
      else if (text !== undefined) return invalid(refusal, pathOf(frames, top), PROBLEMS[text] as string)
      else next = item as Record<string | number, unknown>
    }
    object = next
  }
}

function invalid(refusal: string, path: string, problem: string): NotJson {
  return dataObject('invalid', refusal + ': ' + problem + ' at ' + path)
}

/**
 * Source of the kernel's result serializer (spliced into the kernel function, whose captured
 * intrinsics it uses): strict JSON with an explicit stack, so deep results cannot overflow it.
 * No `toJSON`; plain objects and dense arrays only; undefined-valued properties are omitted;
 * anything else yields `{ invalid }` with the path of the offending value.
 */
export const SERIALIZE_SOURCE = `  // ── result serialization: strict JSON, explicit stack, no toJSON ──
  function invalid(path, what) {
    return { __proto__: null, invalid: 'the result is not JSON: ' + what + ' at ' + path }
  }
  function pathOf(frames, top) {
    let path = '$'
    for (let i = 0; i <= top; i++) {
      const f = frames[i]
      const k = f.array ? f.index - 1 : f.keys[f.index - 1]
      path += f.array ? '[' + k + ']' : apply(regexpExec, identifierPattern, [k]) ? '.' + k : '[' + JSONStringify(k) + ']'
    }
    return path
  }
  function serialize(root) {
    const out = []
    let n = 0
    const frames = []
    let top = -1
    const active = new SetCtor()
    function visit(value) {
      switch (typeof value) {
        case 'string': out[n++] = JSONStringify(value); return null
        case 'number':
          if (value !== value || value === 1 / 0 || value === -1 / 0) return 'a non-finite number'
          out[n++] = JSONStringify(value); return null
        case 'boolean': out[n++] = value ? 'true' : 'false'; return null
        case 'undefined': return 'undefined'
        case 'bigint': return 'a BigInt'
        case 'symbol': return 'a symbol'
        case 'function': return 'a function'
      }
      if (value === null) { out[n++] = 'null'; return null }
      if (apply(setHas, active, [value])) return 'a cycle'
      if (isArray(value)) {
        out[n++] = '['
        frames[++top] = { __proto__: null, value, array: true, keys: null, length: value.length, index: 0 }
      } else {
        const proto = getPrototypeOf(value)
        if (proto !== ObjectProto && proto !== null) return 'a non-plain object'
        const own = keys(value)
        out[n++] = '{'
        frames[++top] = { __proto__: null, value, array: false, keys: own, length: own.length, index: 0, wrote: false }
      }
      apply(setAdd, active, [value])
      return null
    }
    let problem = visit(root)
    if (problem !== null) return invalid('$', problem)
    while (top >= 0) {
      const f = frames[top]
      if (f.index >= f.length) {
        out[n++] = f.array ? ']' : '}'
        apply(setDelete, active, [f.value])
        top--
        continue
      }
      const i = f.index++
      if (f.array) {
        if (!hasOwn(f.value, i)) return invalid(pathOf(frames, top), 'an array hole')
        if (i > 0) out[n++] = ','
        problem = visit(f.value[i])
      } else {
        const key = f.keys[i]
        const item = f.value[key]
        if (item === undefined) continue
        if (f.wrote) out[n++] = ','
        f.wrote = true
        out[n++] = JSONStringify(key) + ':'
        problem = visit(item)
      }
      if (problem !== null) return invalid(pathOf(frames, top), problem)
    }
    return apply(arrayJoin, out, [''])
  }`

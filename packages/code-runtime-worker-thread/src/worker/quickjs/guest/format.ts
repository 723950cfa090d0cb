/**
 * Console-line formatting and error descriptions inside the QuickJS engine, the same text the
 * node:vm kernel produces: a `util.format`-like subset with compact inspection. Intrinsics are
 * captured when this module is evaluated (before any program), so a program that rewrites
 * prototypes or globals cannot redirect it.
 */
import { intrinsics as I } from './intrinsics'

/** Inspect a value compactly; strings at depth 0 print bare. */
export function inspect(value: unknown, depth: number, seen: Set<object>): string {
  switch (typeof value) {
    case 'string':
      return depth === 0 ? value : I.JSONStringify(value)
    case 'number':
      return value === 0 && 1 / value < 0 ? '-0' : I.String(value)
    case 'bigint':
      return I.String(value) + 'n'
    case 'symbol':
      return I.apply(I.symbolToString, value, [])
    case 'undefined':
      return 'undefined'
    case 'boolean':
      return value ? 'true' : 'false'
    case 'function': {
      const name: unknown = (value as { name?: unknown }).name
      return '[Function: ' + (typeof name === 'string' && name !== '' ? name : '(anonymous)') + ']'
    }
  }
  if (value === null) return 'null'
  const object = value as object
  if (I.apply(I.setHas, seen, [object])) return '[Circular]'
  const proto: unknown = I.getPrototypeOf(object)
  if (proto === I.DateProto) {
    try {
      return I.apply(I.dateToISO, object, []) as string
    } catch {
      return 'Invalid Date'
    }
  }
  if (object instanceof I.Error) return describeError(object)
  if (depth > 2) return I.isArray(object) ? '[Array]' : '[Object]'
  I.apply(I.setAdd, seen, [object])
  const parts: string[] = []
  let n = 0
  let open = '{ '
  let close = ' }'
  if (I.isArray(object)) {
    open = '[ '
    close = ' ]'
    const len = object.length
    for (let i = 0; i < len && i < 100; i++) {
      parts[n++] = I.hasOwn(object, i) ? inspect(object[i], depth + 1, seen) : '<empty>'
    }
    if (len > 100) parts[n++] = '... ' + (len - 100) + ' more items'
  } else if (proto === I.MapProto) {
    open = 'Map(' + I.apply(I.mapSize, object, []) + ') { '
    const it = I.apply(I.mapEntries, object, []) as Iterator<[unknown, unknown]>
    for (
      let step = I.apply(I.iterNext, it, []) as IteratorResult<[unknown, unknown]>;
      !step.done && n < 100;
    ) {
      parts[n++] = inspect(step.value[0], depth + 1, seen) + ' => ' + inspect(step.value[1], depth + 1, seen)
      step = I.apply(I.iterNext, it, []) as IteratorResult<[unknown, unknown]>
    }
  } else if (proto === I.SetProto) {
    open = 'Set(' + I.apply(I.setSize, object, []) + ') { '
    const it = I.apply(I.setValues, object, []) as Iterator<unknown>
    for (let step = I.apply(I.iterNext, it, []) as IteratorResult<unknown>; !step.done && n < 100; ) {
      parts[n++] = inspect(step.value, depth + 1, seen)
      step = I.apply(I.iterNext, it, []) as IteratorResult<unknown>
    }
  } else {
    const names = I.keys(object)
    for (let i = 0; i < names.length && i < 100; i++) {
      const key = names[i] as string
      const label = I.apply(I.regexpExec, I.identifierPattern, [key]) ? key : I.JSONStringify(key)
      parts[n++] = label + ': ' + inspect((object as Record<string, unknown>)[key], depth + 1, seen)
    }
    if (names.length > 100) parts[n++] = '... ' + (names.length - 100) + ' more properties'
  }
  I.apply(I.setDelete, seen, [object])
  if (n === 0) return open === '[ ' ? '[]' : open === '{ ' ? '{}' : open + '}'
  return open + (I.apply(I.arrayJoin, parts, [', ']) as string) + close
}

/** One console line from a call's arguments (`%s %d %i %f %j %o %O %c %%` in a leading string). */
export function formatLine(args: readonly unknown[]): string {
  const seen = new I.Set<object>()
  const parts: string[] = []
  let n = 0
  let start = 0
  const first = args[0]
  if (typeof first === 'string' && args.length > 1) {
    let out = ''
    let used = 1
    for (let i = 0; i < first.length; i++) {
      const c = first[i] as string
      if (c !== '%' || i + 1 >= first.length) {
        out += c
        continue
      }
      const spec = first[i + 1] as string
      if (spec === '%') {
        out += '%'
        i++
        continue
      }
      if (used >= args.length || 'sdifjoOc'.indexOf(spec) < 0) {
        out += c
        continue
      }
      const arg = args[used++]
      i++
      if (spec === 's') out += typeof arg === 'string' ? arg : inspect(arg, 1, seen)
      else if (spec === 'd' || spec === 'i') {
        out +=
          typeof arg === 'bigint'
            ? I.String(arg) + 'n'
            : inspect(spec === 'i' ? I.trunc(+(arg as number)) : +(arg as number), 1, seen)
      } else if (spec === 'f') out += inspect(+(arg as number), 1, seen)
      else if (spec === 'j') {
        try {
          out += I.JSONStringify(arg)
        } catch {
          out += '[Circular]'
        }
      } else if (spec !== 'c') out += inspect(arg, 1, seen)
    }
    parts[n++] = out
    start = used
  }
  for (let i = start; i < args.length; i++) parts[n++] = inspect(args[i], 0, seen)
  return I.apply(I.arrayJoin, parts, [' ']) as string
}

/** `Name: message` for error-like values, `Uncaught <inspection>` for anything else. Never throws. */
export function describeError(error: unknown): string {
  try {
    if (error !== null && (typeof error === 'object' || typeof error === 'function')) {
      const record = error as { message?: unknown; name?: unknown }
      const message = record.message
      if (typeof message === 'string') {
        const name = record.name
        let text = typeof name === 'string' && name !== '' ? name : 'Error'
        if (message !== '') text += ': ' + message
        return text
      }
    }
    return 'Uncaught ' + inspect(error, 1, new I.Set<object>())
  } catch {
    return 'Uncaught exception (it could not be described)'
  }
}

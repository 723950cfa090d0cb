/**
 * The built-ins the guest kernel uses, captured when the kernel is evaluated inside QuickJS —
 * before any program runs — so a program that rewrites `JSON.parse`, `Array.prototype.join` or
 * `Promise.prototype.then` cannot redirect the kernel.
 */
const MapProto = Map.prototype
const SetProto = Set.prototype

/** Captured intrinsics (read once, at kernel evaluation). */
export const intrinsics = {
  apply: Reflect.apply,
  create: Object.create,
  defineProperty: Object.defineProperty,
  freeze: Object.freeze,
  getPrototypeOf: Object.getPrototypeOf,
  keys: Object.keys,
  hasOwn: Object.hasOwn,
  isArray: Array.isArray,
  ObjectProto: Object.prototype,
  JSONParse: JSON.parse,
  JSONStringify: JSON.stringify,
  Promise,
  Proxy,
  promiseThen: Promise.prototype.then,
  promiseResolve: Promise.resolve,
  promiseReject: Promise.reject,
  Error,
  TypeError,
  RangeError,
  Set,
  setHas: SetProto.has,
  setAdd: SetProto.add,
  setDelete: SetProto.delete,
  MapProto,
  SetProto,
  DateProto: Date.prototype,
  Date,
  DateNow: Date.now,
  dateToString: Date.prototype.toString,
  Math,
  MathRandom: Math.random,
  Uint8Array,
  arrayFrom: Array.from,
  construct: Reflect.construct,
  mapSize: Object.getOwnPropertyDescriptor(MapProto, 'size')!.get!,
  setSize: Object.getOwnPropertyDescriptor(SetProto, 'size')!.get!,
  mapEntries: MapProto.entries,
  setValues: SetProto.values,
  iterNext: new Map().entries().next,
  dateToISO: Date.prototype.toISOString,
  arrayJoin: Array.prototype.join,
  regexpExec: RegExp.prototype.exec,
  String,
  symbolToString: Symbol.prototype.toString,
  trunc: Math.trunc,
  min: Math.min,
  max: Math.max,
  floor: Math.floor,
  toLowerCase: String.prototype.toLowerCase,
  stringIncludes: String.prototype.includes,
  isFinite: Number.isFinite,
  identifierPattern: /^[A-Za-z_$][A-Za-z0-9_$]*$/,
} as const

/**
 * A prototype-less data descriptor: descriptors built while a program runs must not inherit a
 * `get` or `set` the program put on `Object.prototype`.
 */
export function descriptor(value: unknown, writable: boolean, enumerable: boolean): PropertyDescriptor {
  const d = intrinsics.create(null) as PropertyDescriptor
  d.value = value
  d.writable = writable
  d.enumerable = enumerable
  d.configurable = writable
  return d
}

/** A prototype-less object with one property. */
export function dataObject<K extends string, V>(key: K, value: V): { readonly [P in K]: V } {
  const o = intrinsics.create(null) as Record<K, V>
  o[key] = value
  return o
}

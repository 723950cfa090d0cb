import type { JsonValue } from '@dsh/tools-core'

/** Soft check for persisted presentation meta: a plain JSON object, else `undefined`. */
export function metaRecord(meta: JsonValue | undefined): { readonly [key: string]: JsonValue } | undefined {
  return typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? meta : undefined
}

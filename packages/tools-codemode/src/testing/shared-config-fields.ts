import type { ConfigSchema } from '@dsh/tools-schema'
import { type RuntimeConfigFieldName, runtimeConfigFields } from '../runtime-kit/runtime-config-fields'

/** A shared field's own default or bounds, where a runtime tunes them. */
export type SharedFieldTuning = {
  readonly [K in RuntimeConfigFieldName]?: {
    readonly default?: number
    readonly minimum?: number
    readonly maximum?: number
  }
}

/**
 * How a runtime's config departs from the runtime kit's shared fields (`runtimeConfigFields`):
 * per shared key, the default or bounds it tunes; a key it leaves as the kit declares it is
 * absent. Throws when a shared key is missing or its meaning is not the shared one (a field
 * declared by hand rather than spread from the kit).
 */
export function sharedFieldTuning(schema: ConfigSchema<unknown, unknown>): SharedFieldTuning {
  const { properties } = schema['~standard'].jsonSchema.input({ target: 'draft-2020-12' }) as {
    properties: Record<string, Record<string, unknown> | undefined>
  }
  const tuning: Record<string, Record<string, unknown>> = {}
  for (const [name, shared] of Object.entries(runtimeConfigFields())) {
    const field = properties[name]
    const meaning = field?.description
    if (typeof meaning !== 'string' || !meaning.startsWith(shared.description))
      throw new Error(`\`${name}\` is not declared with the runtime kit's runtimeConfigFields`)
    const own: Record<string, unknown> = {}
    for (const key of ['default', 'minimum', 'maximum'] as const)
      if (field![key] !== shared[key]) own[key] = field![key]
    if (Object.keys(own).length > 0) tuning[name] = own
  }
  return tuning
}

// A model's arguments are copied (thawed) before a Standard Schema library validates them. A
// `__proto__` key in them must stay an own key of that copy: assigned, it became the copy's
// prototype, and a library reading an optional field (`admin`) found the inherited value.
import { toJsonSchema } from '@valibot/to-json-schema'
import { type } from 'arktype'
import * as v from 'valibot'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineTool, type JsonValue } from '../src/index'
import { call, createRuntime } from './fixtures/runtime'

const schemas = {
  zod: z.object({ name: z.string(), admin: z.boolean().optional() }),
  valibot: v.object({ name: v.string(), admin: v.optional(v.boolean()) }),
  arktype: type({ name: 'string', 'admin?': 'boolean' }),
}

let dispose: (() => Promise<void>) | undefined
afterEach(async () => {
  await dispose?.()
  dispose = undefined
})

describe('a `__proto__` key in the arguments of a Standard Schema tool', () => {
  it.each(Object.entries(schemas))('%s never sees an inherited field', async (library, schema) => {
    const ctx = await createRuntime()
    dispose = () => ctx.fiber.dispose()
    ctx.tools.register(
      defineTool({
        name: 'whoami',
        description: 'Say whether the caller is an admin.',
        parameters: schema,
        // valibot carries no `~standard.jsonSchema`: its documented converter
        ...(library === 'valibot'
          ? {
              toJsonSchema: (valibot: v.GenericSchema) =>
                toJsonSchema(valibot, { errorMode: 'ignore', target: 'draft-2020-12' }),
            }
          : {}),
        output: {
          schema: { type: 'string' },
          render: (_args, value) => [{ type: 'text', text: value }],
        },
        execute: (args) => ((args as { admin?: boolean }).admin === true ? 'admin' : 'user'),
      }),
    )
    const args = JSON.parse('{"__proto__": {"admin": true}, "name": "mallory"}') as JsonValue
    const result = await ctx.tools.execute(call('whoami', args as Record<string, JsonValue>))
    // Either the library refuses the unknown key, or it sees no `admin`: never an admin.
    if (!result.isError) expect(result.value).toBe('user')
    else expect(result.error.info?.code).toBe('INVALID_ARGS')
  })
})

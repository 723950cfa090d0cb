import { describe, expect, expectTypeOf, it } from 'vitest'
import {
  type ConfigSchemaResult,
  compileJsonSchemaValidator,
  configSchema,
  type InferConfig,
  SchemaDefinitionError,
} from '../src/index'

interface Tracer {
  startSpan(name: string): unknown
}
const isTracer = (value: unknown): value is Tracer =>
  typeof value === 'object' && value !== null && typeof (value as Tracer).startSpan === 'function'

const spec = {
  type: 'object',
  additionalProperties: false,
  properties: {
    city: { type: 'string', minLength: 1 },
    limit: { type: 'integer', minimum: 1, default: 10, description: 'How many.' },
    tags: { type: 'array', items: { type: 'string' }, default: ['a'] },
    env: { type: 'record', values: { type: 'string' }, default: {} },
    tracer: { type: 'host', description: 'an OpenTelemetry Tracer', is: isTracer },
    sandbox: {
      anyOf: [
        { type: 'boolean' },
        {
          type: 'object',
          additionalProperties: false,
          properties: {
            network: { type: 'string', enum: ['none', 'host'], default: 'none' },
            scan: { type: 'integer', minimum: 1, default: 5 },
          },
        },
      ],
    },
  },
} as const

const Config = configSchema(spec)

function value<T>(result: ConfigSchemaResult<T>): T {
  if (result.issues) throw new Error(result.issues.map((issue) => issue.message).join('; '))
  return result.value
}

describe('configSchema', () => {
  it('fills defaults, frozen, for undefined, null and absent or undefined keys', () => {
    for (const input of [undefined, null, {}, { limit: undefined }]) {
      const config = value(Config['~standard'].validate(input))
      expect(config).toEqual({ limit: 10, tags: ['a'], env: {} })
      expect(Object.isFrozen(config)).toBe(true)
      expect(Object.isFrozen(config.tags)).toBe(true)
    }
  })

  it('does not share or alter the caller value, and fills defaults in nested objects and union branches', () => {
    const input = { sandbox: { network: 'host' as const }, tags: ['x'] }
    const config = value(Config['~standard'].validate(input))
    expect(config.sandbox).toEqual({ network: 'host', scan: 5 })
    expect(input.sandbox).toEqual({ network: 'host' })
    expect(config.tags).not.toBe(input.tags)
    expect(value(Config['~standard'].validate({ sandbox: false })).sandbox).toBe(false)
  })

  it('reports issues in the argument-error form, with Standard Schema paths', () => {
    const result = Config['~standard'].validate({ city: 3, limit: 0, nope: 1, env: { 'a b': 2 } })
    expect(result.issues).toEqual([
      { message: '$.city: expected string, got number', path: ['city'] },
      { message: '$.limit: expected number >= 1, got 0', path: ['limit'] },
      { message: '$.env["a b"]: expected string, got number', path: ['env', 'a b'] },
      { message: '$.nope: unexpected property "nope"', path: ['nope'] },
    ])
    expect(Config['~standard'].validate('x').issues).toEqual([{ message: '$: expected object, got string' }])
  })

  it("reports a union value by the one branch its JSON type picks, at that branch's paths", () => {
    expect(Config['~standard'].validate({ sandbox: { network: 'lan', scan: 0, x: 1 } }).issues).toEqual([
      { message: '$.sandbox.network: expected one of "none", "host"', path: ['sandbox', 'network'] },
      { message: '$.sandbox.scan: expected number >= 1, got 0', path: ['sandbox', 'scan'] },
      { message: '$.sandbox.x: unexpected property "x"', path: ['sandbox', 'x'] },
    ])
    // No branch (or several) admits a string: the union's own summary stays.
    const [issue] = Config['~standard'].validate({ sandbox: 'yes' }).issues ?? []
    expect(issue?.message).toMatch(/^\$\.sandbox: expected at least one of 2 anyOf branches/)
  })

  it('passes host values through untouched and refuses others by their description', () => {
    const tracer = { startSpan: () => undefined }
    expect(value(Config['~standard'].validate({ tracer })).tracer).toBe(tracer)
    expect(Object.isFrozen(tracer)).toBe(false)
    expect(Config['~standard'].validate({ tracer: 5 }).issues).toEqual([
      { message: '$.tracer: expected an OpenTelemetry Tracer, got number', path: ['tracer'] },
    ])
  })

  it('validates its own output to itself', () => {
    const once = value(Config['~standard'].validate({ sandbox: {}, city: 'x' }))
    expect(value(Config['~standard'].validate(once))).toEqual(once)
  })

  it('runs check and resolve on the filled config only', () => {
    const Ranged = configSchema(
      {
        type: 'object',
        additionalProperties: false,
        properties: {
          low: { type: 'integer', default: 1 },
          high: { type: 'integer', default: 5 },
          dir: { type: 'string' },
        },
      },
      {
        check: (config) =>
          config.low > config.high
            ? [{ path: ['low'], message: `must not exceed high (${config.high})` }]
            : [],
        resolve: (config) => ({ ...config, dir: config.dir ?? '/cwd' }),
      },
    )
    expect(Ranged['~standard'].validate({ low: 9 }).issues).toEqual([
      { message: '$.low: must not exceed high (5)', path: ['low'] },
    ])
    expect(value(Ranged['~standard'].validate({}))).toEqual({ low: 1, high: 5, dir: '/cwd' })
  })

  it('turns a throwing accessor or guard into an issue', () => {
    const hostile = Object.defineProperty({}, 'city', {
      enumerable: true,
      get() {
        throw new Error('boom')
      },
    })
    expect(Config['~standard'].validate(hostile).issues).toEqual([{ message: '$: boom' }])
  })

  it('exposes its JSON Schema (Standard JSON Schema), hosts as description-only nodes', () => {
    const input = Config['~standard'].jsonSchema.input({ target: 'draft-2020-12' })
    expect(input.$schema).toBe('https://json-schema.org/draft/2020-12/schema')
    const properties = input.properties as Record<string, Record<string, unknown>>
    expect(properties.tracer).toEqual({ description: 'an OpenTelemetry Tracer' })
    expect(properties.env).toEqual({ type: 'object', default: {}, additionalProperties: { type: 'string' } })
    expect(properties.limit).toEqual({ type: 'integer', minimum: 1, default: 10, description: 'How many.' })
    expect(input.required).toBeUndefined()
    const output = Config['~standard'].jsonSchema.output({ target: 'draft-07' })
    expect(output.$schema).toBe('http://json-schema.org/draft-07/schema#')
    expect(output.required).toEqual(['limit', 'tags', 'env'])
    expect(() => Config['~standard'].jsonSchema.input({ target: 'openapi-3.0' })).toThrow(TypeError)
    // The published schema accepts every config the validator accepts (hosts aside).
    const check = compileJsonSchemaValidator(input as never)
    expect(check({ city: 'x', limit: 2, sandbox: { network: 'host' } })).toEqual([])
  })

  it('infers the output: defaulted fields present, host fields typed by their guard', () => {
    type Out = InferConfig<typeof spec>
    expectTypeOf<Out['limit']>().toEqualTypeOf<number>()
    expectTypeOf<Out['tracer']>().toEqualTypeOf<Tracer | undefined>()
    expectTypeOf<Out['env']>().toEqualTypeOf<{ readonly [key: string]: string }>()
    expectTypeOf<Out['city']>().toEqualTypeOf<string | undefined>()
    expectTypeOf<InferConfig<typeof Config>>().toEqualTypeOf<Out>()
    // A config may be left out only when no field is required.
    type Given = NonNullable<(typeof Config)['~standard']['types']>['input']
    expectTypeOf<undefined>().toMatchTypeOf<Given>()
    const Named = configSchema({
      type: 'object',
      additionalProperties: false,
      properties: { name: { type: 'string', required: true } },
    })
    type NamedInput = NonNullable<(typeof Named)['~standard']['types']>['input']
    expectTypeOf<NamedInput>().toEqualTypeOf<{ readonly name: string }>()
  })

  it('refuses malformed specs with a spec path', () => {
    const bad = (properties: Record<string, unknown>) => () =>
      configSchema({ type: 'object', additionalProperties: false, properties } as never)
    expect(bad({ t: { type: 'host', is: isTracer } })).toThrow(SchemaDefinitionError)
    expect(bad({ t: { type: 'host', description: 'x', is: isTracer, default: 1 } })).toThrow(
      /\$\.properties\.t\.default/,
    )
    expect(bad({ m: { type: 'record', values: { type: 'strin' } } })).toThrow(
      /\$\.properties\.m\.values\.type/,
    )
    expect(bad({ n: { type: 'integer', minimum: 'x' } })).toThrow(SchemaDefinitionError)
  })
})

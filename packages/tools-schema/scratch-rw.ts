import { compileJsonSchemaValidator as c, normalizeSchema } from './src/index'
const pyd = {
  $defs: {
    Cat: { properties: { pet_type: { const: 'cat', title: 'Pet Type', type: 'string' }, meows: { title: 'Meows', type: 'integer' } }, required: ['pet_type', 'meows'], title: 'Cat', type: 'object' },
    Dog: { properties: { pet_type: { const: 'dog', title: 'Pet Type', type: 'string' }, barks: { title: 'Barks', type: 'number' } }, required: ['pet_type', 'barks'], title: 'Dog', type: 'object' },
    Color: { enum: ['red', 'green'], title: 'Color', type: 'string' },
  },
  properties: {
    pet: { discriminator: { mapping: { cat: '#/$defs/Cat', dog: '#/$defs/Dog' }, propertyName: 'pet_type' }, oneOf: [{ $ref: '#/$defs/Cat' }, { $ref: '#/$defs/Dog' }], title: 'Pet' },
    note: { anyOf: [{ type: 'string', maxLength: 5 }, { type: 'null' }], default: null, title: 'Note' },
    color: { $ref: '#/$defs/Color', default: 'red' },
    price: { anyOf: [{ type: 'number' }, { type: 'string', pattern: '^(?!^[-+.]*$)[+-]?0*\\d*\\.?\\d*$' }], title: 'Price' },
    pair: { maxItems: 2, minItems: 2, prefixItems: [{ type: 'integer' }, { type: 'string' }], type: 'array' },
  },
  required: ['pet'], title: 'Model', type: 'object',
}
const v = c(pyd as never)
for (const x of [{ pet: { pet_type: 'cat', meows: 1 } }, { pet: { pet_type: 'cat', barks: 1 } }, { pet: { pet_type: 'bird' } }, { pet: { pet_type: 'dog', barks: 1 }, note: 'toolong' }, { pet: { pet_type: 'dog', barks: 1 }, note: 3 }, { pet: { pet_type: 'dog', barks: 1 }, color: 'blue' }, { pet: { pet_type: 'dog', barks: 1 }, price: '1.5x' }, { pet: { pet_type: 'dog', barks: 1 }, pair: [1, 2] }, { pet: { pet_type: 'dog', barks: 1 }, pair: [1, 'a', 3] }])
  console.log(JSON.stringify(x), JSON.stringify(v(x)))
const zod = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { email: { type: 'string', format: 'email', pattern: "^(?!\\.)(?!.*\\.\\.)([A-Za-z0-9_'+\\-\\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\\-]*\\.)+[A-Za-z]{2,}$" }, n: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 }, price: { type: 'number', multipleOf: 0.01 }, tags: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: { type: 'number' } }, u: { anyOf: [{ type: 'object', properties: { kind: { type: 'string', const: 'a' } }, required: ['kind'], additionalProperties: false }, { type: 'object', properties: { kind: { type: 'string', const: 'b' }, x: { type: 'number' } }, required: ['kind', 'x'], additionalProperties: false }] } }, required: ['email'], additionalProperties: false }
const z = c(zod as never)
for (const x of [{ email: 'a@b.co', price: 19.99 }, { email: 'a..b@b.co' }, { email: 'a@b.co', extra: 1 }, { email: 'a@b.co', u: { kind: 'b' } }, { email: 'a@b.co', u: { kind: 'c' } }, { email: 'a@b.co', n: 2 ** 60 }, { email: 'a@b.co', tags: { a: 'x' } }])
  console.log(JSON.stringify(x), JSON.stringify(z(x)))
const gem = normalizeSchema({ type: 'OBJECT', properties: { x: { type: 'STRING', nullable: true, format: 'enum', enum: ['a', 'b'] }, n: { type: 'INTEGER', format: 'int32' , nullable: true} , arr: {type:'ARRAY', items: {type:'NUMBER'}}}, required: ['x'] } as never, { from: 'gemini' })
console.log(JSON.stringify(gem))
const g = c(gem)
for (const x of [{ x: null }, { x: 'c' }, { x: 'a', n: null }, { x: 'a', n: 1.5 }, {}]) console.log(JSON.stringify(x), JSON.stringify(g(x)))
const oa = normalizeSchema({ type: 'object', properties: { a: { type: 'number', minimum: 0, exclusiveMinimum: true, nullable: true }, b: { allOf: [{ $ref: '#/components/schemas/X' }], nullable: true } }, components: { schemas: { X: { type: 'string' } } } } as never, { from: 'openapi-3.0' })
console.log(JSON.stringify(oa))
const o = c(oa)
for (const x of [{ a: 0 }, { a: null }, { b: null }, { b: 1 }]) console.log(JSON.stringify(x), JSON.stringify(o(x)))

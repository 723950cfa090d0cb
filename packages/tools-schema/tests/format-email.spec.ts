// `format: "email"` under `formats: 'assert'` is RFC 5321's Mailbox (ASCII): dot-string or
// quoted-string local part, a domain (one label is enough) or an IPv4 / IPv6 address literal.
import { describe, expect, it } from 'vitest'
import { compileJsonSchemaValidator } from '../src/index'

const isEmail = compileJsonSchemaValidator({ format: 'email' }, { formats: 'assert' })

describe('format email', () => {
  it.each([
    'joe.bloggs@example.com',
    'te~st@example.com',
    "!#$%&'*+/=?^_`{|}~-@example.com",
    '"joe bloggs"@example.com',
    '"joe..bloggs"@example.com',
    '"joe@bloggs"@example.com',
    '""@iana.org',
    '"\\a"@iana.org',
    '"\\""@iana.org',
    '"\\\\"@iana.org',
    'joe.bloggs@[127.0.0.1]',
    'joe.bloggs@[IPv6:::1]',
    'a@[ipv6:2001:db8::1]',
    'test@io',
    'test@255.255.255.255',
    'test@c--n.com',
  ])('accepts %s', (text) => {
    expect(isEmail(text)).toEqual([])
  })

  it.each([
    '2962',
    '.test@example.com',
    'test.@example.com',
    'te..st@example.com',
    'joe bloggs@example.com',
    'a@b@c.org',
    'test"@iana.org',
    '"test"test@iana.org',
    '"test@iana.org',
    '"test\\\u00a9"@iana.org',
    'a\u00e9@iana.org',
    'a@\u00e9.org',
    'joe.bloggs@[127.0.0.300]',
    'a@[1.2.3]',
    'a@[]',
    'test@[RFC-5322-domain-literal]',
    'test@a[255.255.255.255]',
    '[1.2.3.4]@iana.org',
    'test@iana.org.',
    'test@-iana.org',
    'test@iana..com',
    'test@iana.org\n',
    ' a@iana.org',
    '',
    '@example.com',
    'joe.bloggs@',
  ])('refuses %j', (text) => {
    expect(isEmail(text)).toEqual([{ path: '$', message: 'expected format "email"' }])
  })

  it('stays linear on long hostile local parts', () => {
    // Backtracking regexes explode on these; ours answer in one pass each.
    for (const text of [`"${'\\'.repeat(100_000)}`, `${'a.'.repeat(50_000)}@`, `${'a'.repeat(100_000)}!`])
      expect(isEmail(text)).toHaveLength(1)
  })
})

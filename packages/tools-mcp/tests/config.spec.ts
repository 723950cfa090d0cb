import { describe, expect, it } from 'vitest'
import { Config } from '../src/index'
import { DEFAULT_SERVER_MESSAGE_LIMITS } from '../src/message-limits'
import { call, createApp, inMemoryFixture, loadMcp } from './fixtures/app'

const validate = (value: unknown) => Config['~standard'].validate(value)

describe('client config', () => {
  it('fills in defaults: prefix <name>__, untrusted annotations, SDK deadline', () => {
    const result = validate({ name: 'srv', transport: { command: 'node' } })
    expect('value' in result && result.value).toEqual({
      name: 'srv',
      transport: { command: 'node' },
      prefix: 'srv__',
      trustAnnotations: false,
      timeoutMs: undefined,
      limits: DEFAULT_SERVER_MESSAGE_LIMITS,
    })
  })

  it.each([
    ['not an object', 'nope'],
    ['no name', { transport: { command: 'node' } }],
    ['a name over 64 characters', { name: 'n'.repeat(65), transport: { command: 'node' } }],
    ['no transport kind', { name: 's', transport: {} }],
    ['two transport kinds', { name: 's', transport: { command: 'node', url: 'http://x' } }],
    ['a non-http url', { name: 's', transport: { url: 'file:///etc/passwd' } }],
    ['args that are not strings', { name: 's', transport: { command: 'node', args: [1] } }],
    ['env that is not a string map', { name: 's', transport: { command: 'node', env: { A: 1 } } }],
    ['an unknown transport key', { name: 's', transport: { command: 'node', shell: true } }],
    ['an unknown top-level key', { name: 's', transport: { command: 'node' }, extra: 1 }],
    [
      'a non-boolean trustAnnotations',
      { name: 's', transport: { command: 'node' }, trustAnnotations: 'yes' },
    ],
    ['a zero timeoutMs', { name: 's', transport: { command: 'node' }, timeoutMs: 0 }],
    ['a zero limit', { name: 's', transport: { command: 'node' }, limits: { maxNodes: 0 } }],
    ['an unknown limit', { name: 's', transport: { command: 'node' }, limits: { maxKeys: 5 } }],
    ['a fractional timeoutMs', { name: 's', transport: { command: 'node' }, timeoutMs: 1.5 }],
  ])('rejects %s', (_label, value) => {
    const result = validate(value)
    expect('issues' in result && result.issues?.length).toBeGreaterThan(0)
  })

  it('words issues like argument errors, a transport factory by its description', () => {
    const { create } = inMemoryFixture().transport
    const ok = validate({ name: 's', transport: { create } })
    expect(ok.issues === undefined && 'create' in ok.value.transport && ok.value.transport.create).toBe(
      create,
    )
    expect(validate({ name: 's', transport: { create: 5 } }).issues).toEqual([
      {
        message: '$.transport.create: expected a function returning a fresh SDK Transport, got number',
        path: ['transport', 'create'],
      },
    ])
    expect(validate({ name: 's', transport: { url: 'file:///etc/passwd' } }).issues).toEqual([
      {
        message: '$.transport.url: expected an http(s) URL, got "file:///etc/passwd"',
        path: ['transport', 'url'],
      },
    ])
    expect(validate({ name: 's', transport: { command: 'node' }, limits: { maxNodes: 0 } }).issues).toEqual([
      { message: '$.limits.maxNodes: expected number >= 1, got 0', path: ['limits', 'maxNodes'] },
    ])
  })

  it('loading with an invalid config fails and registers nothing', async () => {
    const { ctx } = await createApp()
    await expect(loadMcp(ctx, { name: '', transport: inMemoryFixture().transport })).rejects.toThrow()
    expect(ctx.tools.schemas()).toEqual([])
    expect((await call(ctx, 'fx__echo', { text: 'x' })).isError).toBe(true)
  })
})

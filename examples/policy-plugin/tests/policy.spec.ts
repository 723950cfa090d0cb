import { Context } from '@deepseek-ai/cordis'
import ToolRuntime, { defineTool, type ToolExecutionResult } from '@dsh/tools-core'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import * as policy from '../src/index'

let ctx: Context
let ran: string[]
const signal = new AbortController().signal

const call = (name: string, args: unknown, callId = `call-${name}`): Promise<ToolExecutionResult> =>
  ctx.tools.execute({ callId, name, arguments: args, signal })

beforeEach(async () => {
  ran = []
  ctx = new Context()
  await ctx.plugin(ToolRuntime)
  ctx.tools.register(
    defineTool({
      name: 'bash',
      description: 'Pretend to run a command.',
      parameters: { command: { type: 'string', required: true } },
      output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
      execute: (args) => {
        ran.push(args.command)
        return `ran ${args.command}`
      },
    }),
  )
  ctx.tools.register(
    defineTool({
      name: 'read',
      description: 'Pretend to read a file.',
      parameters: { file_path: { type: 'string', required: true } },
      output: {
        schema: {
          type: 'object',
          additionalProperties: false,
          properties: { path: { type: 'string', required: true }, text: { type: 'string', required: true } },
        },
        render: (_args, value) => [{ type: 'text', text: `${value.path}:\n${value.text}` }],
      },
      execute: (args) => {
        ran.push(`read ${args.file_path}`)
        return {
          path: args.file_path,
          text: 'host=db.internal\napi_key=abc123\ntoken: sk-live-0123456789abcdefXYZ\n',
        }
      },
    }),
  )
  await ctx.plugin(policy, {
    rules: [
      {
        tool: 'bash',
        argument: 'command',
        pattern: '^(npm test|node --test)$',
        approved: true,
        reason: 'test command',
      },
      { tool: 'bash', approved: false, reason: 'only the test command is pre-approved' },
    ],
    denyArguments: ['(^|/)\\.env$'],
  })
})

afterEach(async () => {
  await ctx.fiber.dispose()
})

describe('policy plugin', () => {
  it('asks the approval service, which approves a rule-matching call', async () => {
    const result = await call('bash', { command: 'npm test' })
    expect(result.isError).toBe(false)
    expect(ran).toEqual(['npm test'])
    expect(ctx.approval.history).toEqual([
      { callId: 'call-bash', tool: 'bash', approved: true, reason: 'test command' },
    ])
  })

  it('an approval denial is a DENIED result and the body never runs', async () => {
    const result = await call('bash', { command: 'rm -rf /' })
    expect(result.isError).toBe(true)
    if (!result.isError) return
    expect(result.error.info?.code).toBe('DENIED')
    expect(result.error.message).toContain('only the test command is pre-approved')
    expect(ran).toEqual([])
  })

  it('the guard denies a protected path even though the gate allowed the tool', async () => {
    const result = await call('read', { file_path: 'config/.env' })
    expect(result.isError).toBe(true)
    if (!result.isError) return
    expect(result.error.info?.code).toBe('DENIED')
    expect(result.error.message).toContain('config/.env')
    expect(ran).toEqual([])
  })

  it('guard denial survives a later allow listener', async () => {
    ctx.on('tools/pre-execute', async () => ({ kind: 'allow' }))
    const result = await call('read', { file_path: '.env' })
    expect(result.isError).toBe(true)
    expect(ran).toEqual([])
  })

  it('redacts secrets from the value and the content, and says so in a context', async () => {
    const result = await call('read', { file_path: 'settings.ini' })
    expect(result.isError).toBe(false)
    if (result.isError) return
    expect(result.value).toEqual({
      path: 'settings.ini',
      text: 'host=db.internal\napi_key=[REDACTED]\ntoken: [REDACTED]\n',
    })
    const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('')
    expect(text).not.toContain('abc123')
    expect(text).not.toContain('sk-live')
    expect(result.additionalContexts).toEqual([
      { source: 'example-policy', text: '2 secret(s) were redacted from the result of read.' },
    ])
  })

  it('leaves clean results untouched', async () => {
    const result = await call('bash', { command: 'node --test' })
    expect(result.isError).toBe(false)
    if (result.isError) return
    expect(result.content).toEqual([{ type: 'text', text: 'ran node --test' }])
    expect(result.additionalContexts ?? []).toEqual([])
  })

  it('rejects an invalid config, naming the path in the form argument errors use', () => {
    const validate = policy.Config['~standard'].validate
    expect(validate({ denyArguments: ['ok', '('] }).issues?.[0]?.message).toMatch(
      /^\$\.denyArguments\[1\]: invalid regular expression/,
    )
    expect(
      validate({ rules: [{ tool: 'bash', pattern: '[', approved: true, reason: 'r' }] }).issues?.[0]?.message,
    ).toMatch(/^\$\.rules\[0\]\.pattern: invalid regular expression/)
    expect(validate({ colour: 'red' }).issues?.[0]?.message).toBe('$.colour: unexpected property "colour"')
  })

  it("compiles sources and RegExps with each field's flags, and accepts its own output", () => {
    const validate = policy.Config['~standard'].validate
    const first = validate({ denyArguments: [/\.env$/i], secretPatterns: ['tok-[0-9]+'] })
    if (first.issues) throw new Error(first.issues[0]?.message)
    const config = first.value
    expect([config.denyArguments[0]?.source, config.denyArguments[0]?.flags]).toEqual(['\\.env$', ''])
    expect([config.secretPatterns[0]?.source, config.secretPatterns[0]?.flags]).toEqual(['tok-[0-9]+', 'gi'])
    expect(validate(config)).toEqual({ value: config })
  })
})

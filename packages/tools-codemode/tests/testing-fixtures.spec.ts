import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import {
  deferred,
  FakeToolCallError,
  fakeHost,
  runRequest,
  scriptCommand,
  spawnScript,
  until,
} from '../src/testing'

describe('the shared runtime test fixtures', () => {
  it('fakeHost dispatches to its own tools only, records calls and lines, and rejects like ToolCallError', async () => {
    const { host, calls, streamed } = fakeHost({ echo: (args) => args as string })
    expect(await host.call('echo', 'hi')).toBe('hi')
    for (const name of ['missing', 'toString', '__proto__']) {
      const error = await host.call(name, null).catch((reason: unknown) => reason)
      expect(error).toBeInstanceOf(FakeToolCallError)
      expect(error).toMatchObject({ toolName: name, message: `unknown tool ${name}` })
    }
    host.onLog?.('line')
    expect(calls.map((call) => call.name)).toEqual(['echo', 'missing', 'toString', '__proto__'])
    expect(streamed).toEqual(['line'])
    expect(host.signal.aborted).toBe(false)
  })

  it('runRequest sorts the tool names as Code Mode passes them', () => {
    expect(runRequest('return 1', ['b', 'a'])).toEqual({
      code: 'return 1',
      description: 'test program',
      toolNames: ['a', 'b'],
    })
  })

  it('until waits for an event and gives up after its turns instead of hanging', async () => {
    const gate = deferred<number>()
    let value = 0
    void gate.promise.then((v) => {
      value = v
    })
    setImmediate(() => gate.resolve(3))
    await until(() => value === 3)
    await expect(until(() => false, 5)).rejects.toThrow('condition never held')
  })

  it('scriptCommand bundles a script once; the child sees its own file URL, its args and every import', async () => {
    const script = fileURLToPath(new URL('./fixtures/bundled-script.ts', import.meta.url))
    const command = await scriptCommand(script)
    // Bundled (esbuild is installed here), not run through tsx's loader hooks; built once.
    expect(command).toEqual([
      '--conditions=@dsh/source',
      expect.stringMatching(/bundled-script-[0-9a-f]{16}\.mjs$/),
    ])
    expect(await scriptCommand(script)).toEqual(command)
    const end = await spawnScript(script, ['a', 'b'], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      killAfterMs: 30_000,
    })
    expect(end).toMatchObject({ code: 0, killed: false, stderr: '' })
    expect(JSON.parse(end.stdout)).toEqual({
      url: new URL('./fixtures/bundled-script.ts', import.meta.url).href,
      args: ['a', 'b'],
      workspace: 'function',
      thirdParty: 'function',
    })
  })

  it('scriptCommand writes a new version of a script beside the old ones and removes those unused for an hour', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dsh-script-command-'))
    const name = `probe-${Date.now().toString(36)}`
    const script = join(dir, `${name}.ts`)
    writeFileSync(script, 'console.log(1)\n')
    const bundles = join(tmpdir(), 'dsh-script-bundles')
    mkdirSync(bundles, { recursive: true })
    const old = join(bundles, `${name}-0000000000000000.mjs`)
    const recent = join(bundles, `${name}-1111111111111111.mjs`)
    const otherScript = join(bundles, `${name}-extra-0000000000000000.mjs`)
    const longAgo = new Date(Date.now() - 2 * 3_600_000)
    for (const file of [old, recent, otherScript]) writeFileSync(file, '')
    for (const file of [old, otherScript]) utimesSync(file, longAgo, longAgo)
    let bundle: string | undefined
    try {
      bundle = (await scriptCommand(script))[1]
      expect(existsSync(bundle!)).toBe(true)
      expect(existsSync(old)).toBe(false)
      expect(existsSync(recent)).toBe(true)
      expect(existsSync(otherScript)).toBe(true)
    } finally {
      for (const file of [old, recent, otherScript, bundle]) if (file) rmSync(file, { force: true })
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

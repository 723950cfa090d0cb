import { spawn } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { createServer, type Server } from 'node:net'
import { homedir, networkInterfaces, tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from '@deepseek-ai/cordis'
import ToolRuntime, { type ToolExecutionResult } from '@dsh/tools-core'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DEFAULT_ENV_ALLOW_LIST, isAllowedEnvName } from '../src/environment'
import * as bash from '../src/index'
import { SANDBOX_UNAVAILABLE_ENV } from '../src/sandbox-probe'
import { hostPids, markedSurvivors, uniqueMarker } from './helpers'

// Real bash, real bubblewrap: what the sandbox keeps from a command, checked from the host.

let workspace: string
let outside: string

beforeEach(() => {
  workspace = realpathSync(mkdtempSync(join(tmpdir(), 'dsh-bash-sbx-ws-')))
  outside = realpathSync(mkdtempSync(join(tmpdir(), 'dsh-bash-sbx-out-')))
})
afterEach(() => {
  rmSync(workspace, { recursive: true, force: true })
  rmSync(outside, { recursive: true, force: true })
})

async function bashTool(config: bash.BashConfigInput, warnings: string[] = []) {
  const ctx = new Context()
  ctx.logger.exporter({ levels: { default: 3 }, export: (message) => warnings.push(String(message.args[0])) })
  await ctx.plugin(ToolRuntime)
  await ctx.plugin(bash, { workdir: workspace, killGraceMs: 200, maxStdoutBytes: 64_000, ...config })
  let calls = 0
  return (command: string): Promise<ToolExecutionResult> =>
    ctx.tools.execute({
      callId: `sbx-${++calls}`,
      name: 'bash',
      arguments: { command, description: 'sandbox test' },
      signal: new AbortController().signal,
    })
}

const output = (result: ToolExecutionResult): string => {
  if (result.isError) throw new Error(`bash failed: ${result.error.message}`)
  const value = result.value as { stdout: string; stderr: string }
  return value.stdout + value.stderr
}

const stderrOf = (result: ToolExecutionResult): string =>
  result.isError ? '' : (result.value as { stderr: string }).stderr

const MODES = [
  ['sandboxed', { fallback: 'refuse' }],
  ['unsandboxed', false],
] as const

describe.each(MODES)('host secrets and processes (%s)', (mode, sandbox) => {
  const sandboxed = mode === 'sandboxed'

  it('host environments are unreadable through /proc ($PPID, pid 1, every pid, the host pid)', async () => {
    // /proc/<pid>/environ shows a process's initial environment, so the secrets are planted at
    // spawn: in a host helper process, and — already there — in this test process itself.
    const secret = `planted-${uniqueMarker()}`
    const helper = spawn('sleep', ['30'], { env: { ...process.env, DSH_SANDBOX_TEST_SECRET: secret } })
    const ownSecret = readFileSync(`/proc/${process.pid}/environ`, 'utf8')
      .split('\0')
      .find((entry) => {
        const name = entry.slice(0, entry.indexOf('='))
        return entry.length > name.length + 4 && !isAllowedEnvName(name, DEFAULT_ENV_ALLOW_LIST)
      })
    try {
      const run = await bashTool({ sandbox })
      const text = output(
        await run(
          [
            `tr '\\0' '\\n' </proc/$PPID/environ`,
            `tr '\\0' '\\n' </proc/1/environ`,
            `for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' <"$f"; done`,
            `tr '\\0' '\\n' </proc/${process.pid}/environ`,
            `tr '\\0' '\\n' </proc/${helper.pid}/environ`,
            'echo end',
          ].join('; '),
        ),
      )
      expect(text).toMatch(/^end$/m)
      // Unsandboxed, the environment allow-list is no boundary: /proc hands the secrets out.
      expect(text.includes(secret)).toBe(!sandboxed)
      if (ownSecret !== undefined) expect(text.includes(ownSecret)).toBe(!sandboxed)
    } finally {
      helper.kill('SIGKILL')
    }
  })

  it('host processes are invisible: the parent is not the host process and host pids do not exist', async () => {
    const run = await bashTool({ sandbox })
    const text = output(
      await run(
        `tr '\\0' ' ' </proc/$PPID/cmdline; echo; tr '\\0' ' ' </proc/${process.pid}/cmdline; echo "count=$(ls /proc | grep -c '^[0-9]')"`,
      ),
    )
    const count = Number(/count=(\d+)/.exec(text)?.[1])
    if (sandboxed) {
      expect(text).not.toContain('vitest')
      expect(count).toBeLessThan(10) // the sandbox's own few processes
    } else {
      expect(text).toContain('node')
    }
  })

  // Each way of leaving the process group; the sandbox's PID namespace ends them all with the
  // call. The escapee writes a file once it runs, then becomes `sleep 300.<marker>`.
  const escapes = [
    ['setsid -f', (e: string) => `setsid -f ${e} >/dev/null 2>&1`, true],
    ['nohup … &', (e: string) => `nohup ${e} >/dev/null 2>&1 &`, false],
    ['double fork', (e: string) => `( (${e} >/dev/null 2>&1 &) & )`, false],
    ['disown', (e: string) => `${e} >/dev/null 2>&1 & disown`, false],
    ['setsid in a double fork', (e: string) => `( (setsid ${e} >/dev/null 2>&1 &) & )`, true],
  ] as const
  it.each(escapes)('no process outlives the call: %s', async (_name, launch, leavesGroup) => {
    const run = await bashTool({ sandbox })
    const marker = uniqueMarker()
    const up = join(workspace, `up-${marker}`)
    const escapee = `sh -c 'echo up > ${up}; exec sleep 300.${marker}'`
    // The command returns only once its escapee runs, so a survivor cannot be one that never started.
    const result = await run(`${launch(escapee)}\nwhile [ ! -e ${up} ]; do sleep 0.01; done; echo started`)
    expect(result).toMatchObject({ isError: false, value: { stdout: 'started\n', exitCode: 0 } })
    // Where a survivor is expected, the wait ends at its limit: 1 s is five times killGraceMs, and
    // every kill the call sends (SIGTERM, then SIGKILL after the grace) is sent before it settles.
    const left = await markedSurvivors(marker, !sandboxed && leavesGroup ? 1_000 : 5_000)
    try {
      // Unsandboxed, only a process that left the group (setsid) escapes the group kill.
      expect(left.length > 0).toBe(!sandboxed && leavesGroup)
    } finally {
      for (const pid of hostPids(marker)) process.kill(pid, 'SIGKILL')
    }
  })
})

describe.each(MODES)('filesystem (%s)', (mode, sandbox) => {
  const sandboxed = mode === 'sandboxed'

  it('writes inside the workspace succeed; writes outside it fail', async () => {
    const run = await bashTool({ sandbox })
    const result = await run(
      `echo in > ${workspace}/inside && echo wrote-inside; echo out > ${outside}/escaped; echo done`,
    )
    expect(output(result)).toContain('wrote-inside')
    expect(readFileSync(join(workspace, 'inside'), 'utf8')).toBe('in\n')
    expect(existsSync(join(outside, 'escaped'))).toBe(!sandboxed)
  })

  it('sandbox.allowWrite adds writable roots', async () => {
    const run = await bashTool({ sandbox: sandboxed ? { allowWrite: [outside] } : false })
    output(await run(`echo out > ${outside}/allowed`))
    expect(readFileSync(join(outside, 'allowed'), 'utf8')).toBe('out\n')
  })

  it('each call gets a private TMPDIR that is writable and removed after the call', async () => {
    const run = await bashTool({ sandbox })
    const text = output(await run('echo "$TMPDIR"; f=$(mktemp) && echo tmp-ok'))
    expect(text).toContain('tmp-ok')
    if (sandboxed) {
      const privateTmp = text.split('\n')[0]!
      expect(privateTmp).toMatch(/dsh-bash-tmp-/)
      expect(existsSync(privateTmp)).toBe(false)
    }
  })

  it('denied paths (default: the home directory) cannot be read', async () => {
    const secretFile = join(outside, 'secret.txt')
    writeFileSync(secretFile, 'file-secret')
    const run = await bashTool({ sandbox: sandboxed ? { denyRead: [outside, homedir()] } : false })
    const text = output(await run(`cat ${secretFile}; echo "entries=$(ls -A ${homedir()} | wc -l)"`))
    const homeEntries = Number(/entries=(\d+)/.exec(text)?.[1])
    if (sandboxed) {
      expect(text).not.toContain('file-secret')
      expect(homeEntries).toBe(0)
    } else {
      expect(text).toContain('file-secret')
      expect(homeEntries).toBe(readdirSync(homedir()).length)
    }
  })
})

describe('filesystem (sandboxed)', () => {
  it('a workspace under a denied directory stays readable and writable; its siblings stay hidden', async () => {
    const nested = join(outside, 'ws')
    mkdirSync(nested)
    writeFileSync(join(outside, 'sibling-secret.txt'), 'SIBLING-CONTENT')
    writeFileSync(join(nested, 'mine.txt'), 'mine')
    const run = await bashTool({ workdir: nested, sandbox: { denyRead: [outside] } })
    const text = output(
      await run(`cat mine.txt; echo; cat ../sibling-secret.txt; echo new > new.txt && echo wrote`),
    )
    expect(text).toContain('mine')
    expect(text).toContain('wrote')
    expect(text).toMatch(/sibling-secret.txt: No such file/)
    expect(text).not.toContain('SIBLING-CONTENT')
    expect(readFileSync(join(nested, 'new.txt'), 'utf8')).toBe('new\n')
  })
})

describe('network', () => {
  let server: Server
  let port: number
  let connections = 0
  beforeEach(async () => {
    connections = 0
    server = createServer((socket) => {
      connections++
      socket.end()
    })
    await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve))
    port = (server.address() as { port: number }).port
  })
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())))

  const connect = (host = '127.0.0.1') => `exec 3<>/dev/tcp/${host}/${port} && echo connected`
  // This host's own non-loopback address, if it has one: from an empty network namespace it is unreachable.
  const hostAddress = Object.values(networkInterfaces())
    .flat()
    .find((address) => address?.family === 'IPv4' && !address.internal)?.address

  it('is off by default in the sandbox: host ports cannot be reached', async () => {
    const run = await bashTool({})
    // 127.0.0.1 is the sandbox's own loopback, where nothing listens.
    const loopback = await run(connect())
    expect(loopback).toMatchObject({ isError: false, value: { stdout: '' } })
    expect(stderrOf(loopback)).toMatch(/connect: Connection refused/)
    if (hostAddress !== undefined) {
      const external = await run(connect(hostAddress))
      expect(external).toMatchObject({ isError: false, value: { stdout: '' } })
      expect(stderrOf(external)).toMatch(/connect: Network is unreachable/)
    }
    expect(connections).toBe(0)
  })

  it("sandbox.network 'host' and the opt-out reach the host's network", async () => {
    for (const sandbox of [{ network: 'host' } as const, false]) {
      const run = await bashTool({ sandbox })
      expect(await run(connect())).toMatchObject({ value: { stdout: 'connected\n' } })
    }
    expect(connections).toBe(2)
  })
})

describe('unavailable sandbox', () => {
  beforeEach(() => {
    process.env[SANDBOX_UNAVAILABLE_ENV] = 'simulated for the test'
  })
  afterEach(() => {
    delete process.env[SANDBOX_UNAVAILABLE_ENV]
  })

  it('the default refuses every call, after one startup warning', async () => {
    const warnings: string[] = []
    const run = await bashTool({}, warnings)
    const results = [await run(`touch ${workspace}/ran`), await run('echo again')]
    for (const result of results) {
      expect(result).toMatchObject({
        isError: true,
        error: { info: { name: 'BashSandboxUnavailableError', code: 'BASH_SANDBOX_UNAVAILABLE' } },
      })
    }
    expect(existsSync(join(workspace, 'ran'))).toBe(false)
    expect(warnings.filter((w) => w.includes('sandbox is unavailable'))).toHaveLength(1)
    expect(warnings[0]).toContain('simulated for the test')
    expect(warnings[0]).toContain('refused')
  })

  it("fallback 'unsandboxed' runs the command, after one startup warning", async () => {
    const warnings: string[] = []
    const run = await bashTool({ sandbox: { fallback: 'unsandboxed' } }, warnings)
    expect(output(await run(`echo out > ${outside}/escaped; echo ran`))).toContain('ran')
    expect(output(await run('echo again'))).toContain('again')
    expect(existsSync(join(outside, 'escaped'))).toBe(true) // really unsandboxed
    expect(warnings.filter((w) => w.includes('sandbox is unavailable'))).toHaveLength(1)
    expect(warnings[0]).toContain('WITHOUT the sandbox')
  })

  it('an explicit opt-out runs unsandboxed without a warning', async () => {
    const warnings: string[] = []
    const run = await bashTool({ sandbox: false }, warnings)
    expect(output(await run('echo ran'))).toContain('ran')
    expect(warnings).toEqual([])
  })
})

/**
 * The escape corpus against real Pyodide in real workers. A secret file and a secret environment
 * variable are planted on the host and a TCP server listens; each program tries to reach the
 * worker's JavaScript realm, the Pyodide API, the host filesystem, environment or network. The
 * corpus runs twice: as is, and after removing the kernel's import refusal (so the deeper layers —
 * the stripped API, the locked realm and the refused interpreter imports — are tested on their own).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CodeRunOutcome } from '@dsh/tools-codemode'
import { fakeHost, runRequest as request } from '@dsh/tools-codemode/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPyodideRuntime } from '../src/index'

// Interpreters boot on demand: runs here are one at a time, and a warm one left at dispose is a
// boot for nothing.
const runtime = createPyodideRuntime({ warmWorkers: 0, computeMs: 30_000, maxWallMs: 90_000 })
const secret = `dsh-secret-${Math.random().toString(36).slice(2)}`
const directory = mkdtempSync(join(tmpdir(), 'dsh-pyodide-escape-'))
const secretPath = join(directory, 'secret.txt')
let server: Server
let port = 0
let connections = 0

beforeAll(async () => {
  writeFileSync(secretPath, secret)
  process.env.DSH_PYODIDE_SECRET = secret
  server = createServer((socket) => {
    connections++
    socket.destroy()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as { port: number }).port
})

afterAll(async () => {
  await runtime.dispose()
  await new Promise((resolve) => server.close(resolve))
  rmSync(directory, { recursive: true, force: true })
  delete process.env.DSH_PYODIDE_SECRET
})

const corpus = readFileSync(new URL('./fixtures/escape-corpus.py', import.meta.url), 'utf8')

function program(unblock: boolean): string {
  return corpus
    .replaceAll('__SECRET_PATH__', secretPath)
    .replaceAll('__PORT__', String(port))
    .replaceAll('__UNBLOCK__', unblock ? 'True' : 'False')
}

async function run(code: string): Promise<{ outcome: CodeRunOutcome; calls: number }> {
  const { host, calls } = fakeHost({ echo: (args) => args as never })
  const outcome = await runtime.run(request(code, ['echo']), host)
  await runtime.whenIdle()
  expect(runtime.stats().runningWorkers).toBe(0)
  expect(runtime.stats().exitingWorkers).toBe(0)
  return { outcome, calls: calls.length }
}

// Every attempt below runs on an interpreter restored from the process's memory snapshot and
// instantiated from the compiled module shared with the snapshot: the corpus proves such an
// interpreter is exactly as locked down as a plainly booted one that compiled its own.
afterAll(() => {
  const { snapshotBoots, plainBoots, sharedModuleBoots } = runtime.stats()
  expect(plainBoots).toBe(0)
  expect(snapshotBoots).toBeGreaterThanOrEqual(7)
  expect(sharedModuleBoots).toBe(snapshotBoots)
})

/** Nothing of value left the sandbox: no secret, no host environment, no host file, no connection. */
function expectNothingLeaked(outcome: CodeRunOutcome): void {
  const text = JSON.stringify(outcome)
  expect(text).not.toContain(secret)
  expect(text).not.toContain(process.env.PATH ?? '<no PATH>')
  expect(text).not.toMatch(/root:x:0:0/)
  expect(text).not.toMatch(/\/work\/|node_modules/)
  expect(connections).toBe(0)
}

const ATTEMPT_COUNT = 32

describe.each([
  ['with the import refusal', false],
  ['with the import refusal removed by the program', true],
])('the escape corpus %s', (_label, unblock) => {
  it('blocks every attempt or yields nothing of value', async () => {
    const { outcome } = await run(program(unblock))
    expectNothingLeaked(outcome)
    expect(outcome.ok).toBe(true)
    if (!outcome.ok) return
    const results = outcome.result as Record<string, string>
    expect(Object.keys(results)).toHaveLength(ATTEMPT_COUNT)
    for (const [name, verdict] of Object.entries(results)) {
      expect(verdict, name).toMatch(/^(blocked|harmless) /)
    }
    // Attempts whose only way forward was JavaScript or the host must have failed outright.
    for (const name of [
      'import_js',
      'import_pyodide_js',
      'run_js',
      'micropip',
      'load_package',
      'dunder_import',
    ]) {
      expect(results[name], name).toMatch(/^blocked /)
    }
    for (const name of [
      'socket_connect',
      'asyncio_connect',
      'urllib_fetch',
      'raw_socket',
      'secret_file',
      'etc_passwd',
    ]) {
      expect(results[name], name).toMatch(/^blocked /)
    }
    expect(results.os_system).toBe('harmless -1')
    expect(results.gc_jsproxies).toMatch(/^harmless \['proxies found: \d+'\]$/)
  })
})

describe('attempts that end the interpreter', () => {
  it.each([
    [
      'ctypes: eval JavaScript and run a shell through libc',
      'import ctypes\nlibc = ctypes.CDLL(None)\nprint(libc.emscripten_run_script_int(b"process.pid"), libc.system(b"cat /etc/passwd"))',
    ],
    ['a fatal signal to itself', 'import os\nos.kill(os.getpid(), 9)'],
    ['os._exit', 'import os\nos._exit(3)'],
    [
      'an exception whose __str__ raises and whose class walks the frames',
      'class Hostile(Exception):\n    def __str__(self):\n        import sys\n        f = sys._getframe()\n        while f.f_back: f = f.f_back\n        raise RuntimeError(str(f.f_globals.keys()))\nraise Hostile()',
    ],
  ])('%s ends the run as exception and leaks nothing', async (_label, body) => {
    const unblock =
      'import sys\nsys.meta_path[:] = [f for f in sys.meta_path if getattr(f, "__name__", "") != "Refuse"]\n'
    const { outcome } = await run(unblock + body)
    expectNothingLeaked(outcome)
    expect(outcome.ok).toBe(false)
    if (outcome.ok) return
    expect(outcome.kind).toBe('exception')
  })
})

describe('hostile port messages', () => {
  it('a message forged through the kernel closures fails the run as a protocol violation', async () => {
    const { outcome, calls } = await run(
      [
        'seen, queue, found = set(), [type(tools).__getattr__], []',
        'while queue:',
        '    fn = queue.pop()',
        '    for cell in getattr(fn, "__closure__", None) or ():',
        '        value = cell.cell_contents',
        '        if id(value) in seen: continue',
        '        seen.add(id(value))',
        '        if type(value).__name__.startswith("Js"): found.append(value)',
        '        elif callable(value): queue.append(value)',
        'print("host functions found:", len(found))',
        'for fn in found:',
        '    fn(999, "echo", "{}")',
        'return "not stopped"',
      ].join('\n'),
    )
    expectNothingLeaked(outcome)
    expect(calls).toBe(0)
    expect(outcome).toMatchObject({ ok: false, kind: 'invalid-output' })
    if (outcome.ok) return
    expect(outcome.message).toMatch(/^protocol violation: /)
  })
})

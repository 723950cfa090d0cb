/**
 * Red-team findings against the full stack — cordis `Context`, `ToolRuntime` in code mode, this
 * runtime as the `codeRuntime` service and `@dsh/tools-codemode`'s `run_code`, with real tools —
 * on real Pyodide workers. Each program attacks one class: a result the worker's own check can be
 * talked out of (the program shares the interpreter whose `json` and builtins the kernel reads),
 * nesting deep enough to stall or overflow the interpreter's encoders, state left for the next
 * run, files that would grow the host process past every memory cap, output written in pieces
 * or straight to file descriptors, and tool names that collide with Python's keywords, dunders
 * and builtins.
 */
import { Context } from '@deepseek-ai/cordis'
import * as CodeMode from '@dsh/tools-codemode'
import { echoTool, runCode } from '@dsh/tools-codemode/testing'
import ToolRuntime, { defineTool, type ToolExecutionResult } from '@dsh/tools-core'
import { afterAll, describe, expect, it } from 'vitest'
import PyodideCodeRuntime from '../src/index'

/** Tool names a Python program cannot spell as `tools.name` — or that shadow what it uses. */
const COLLIDING_NAMES = [
  '__init__',
  '__getattr__',
  '__class__',
  '__slots__',
  '__dir__',
  'class',
  'None',
  'tools',
  'ToolCallError',
  'print',
  'self',
  'str',
] as const

/** A tool that answers with its own name, so a call reaching the wrong tool shows. */
function namedTool(name: string) {
  return defineTool({
    name,
    description: `Answers ${name}.`,
    parameters: {},
    output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
    execute: () => name,
  })
}

const ctx = new Context()
let started = false
afterAll(() => ctx.fiber.dispose())

async function app(): Promise<Context> {
  if (!started) {
    started = true
    // Results here nest 1000 levels (plus run_code's envelope): past tools-core's default depth.
    await ctx.plugin(ToolRuntime, { mode: 'code', valueLimits: { maxDepth: 1_100 } })
    // Busy time for every program here is a few seconds at most on a loaded machine; the
    // quadratic costs these tests guard against run for minutes, so they end as `timeout`.
    await ctx.plugin(PyodideCodeRuntime, {
      // Interpreters boot on demand: runs here are one at a time, and a warm one left at
      // dispose is a whole boot for nothing.
      warmWorkers: 0,
      computeMs: 20_000,
      maxWallMs: 120_000,
      maxMemoryMb: 128,
      // The depth tests below probe the kernel's own encoder ceiling (1000 levels), past the
      // default value depth of 100.
      maxValueDepth: 1000,
    })
    await ctx.plugin(CodeMode, {})
    ctx.tools.register(echoTool)
    for (const name of COLLIDING_NAMES) ctx.tools.register(namedTool(name))
  }
  return ctx
}

function failureOf(result: ToolExecutionResult): string {
  if (!result.isError) throw new Error(`the run succeeded: ${JSON.stringify(result.value)}`)
  return result.error.message
}

describe('the result check cannot be talked out of by the program', () => {
  it.each([
    [
      'json.dumps rebound to return a lossy literal',
      "json.dumps = lambda *a, **k: '[1, 12345678901234567890123]'\nreturn 1",
      'the integer 12345678901234567890123 is beyond 2**53-1',
    ],
    [
      'builtins.type rebound and an int subclass that passes every range check',
      [
        'import builtins',
        'real_type = builtins.type',
        'class Big(int):',
        '    def __le__(self, other): return True',
        '    def __ge__(self, other): return True',
        'builtins.type = lambda value, *rest: int if real_type(value) is Big else real_type(value, *rest)',
        'return {"n": Big(2**70)}',
      ].join('\n'),
      'the integer 1180591620717411303424 is beyond 2**53-1',
    ],
    [
      'json.dumps rebound to return a number beyond the double range',
      'json.dumps = lambda *a, **k: \'{"n": -1e400}\'\nreturn 1',
      'the number -1e400 is beyond the double range',
    ],
  ])('%s: invalid-output, checked on the host', async (_label, program, problem) => {
    const message = failureOf(await runCode(await app(), program))
    expect(message).toBe(`code run failed (invalid-output): the result is not JSON: ${problem}`)
  })
})

describe('deep nesting under a raised recursion limit', () => {
  it('deep arguments fail the call at once and a result at the depth cap comes back intact', async () => {
    const result = await runCode(
      await app(),
      [
        'import sys',
        'sys.setrecursionlimit(10**6)',
        'deep = []',
        'for _ in range(100_000): deep = [deep]',
        'over = "leaf"',
        'for _ in range(1000): over = [over]',
        'for args in ({"text": "x", "deep": deep}, {"text": "x", "over": over}):',
        '    try:',
        '        await tools.echo(args)',
        '    except ToolCallError as error:',
        '        print(error.message)',
        'fits = "leaf"',
        'for _ in range(999): fits = [fits]',
        'said = await tools.echo({"text": "ok", "fits": fits})',
        'edge = "leaf"',
        'for _ in range(999): edge = [edge]',
        'return {"said": said, "edge": edge}',
      ].join('\n'),
    )
    if (result.isError) throw new Error(result.error.message)
    const value = result.value as { logs: string[]; result: { said: string; edge: unknown } }
    expect(value.logs).toEqual(
      Array(2).fill('arguments for echo are not JSON: nested deeper than 1000 levels'),
    )
    expect(value.result.said).toBe('ok')
    let depth = 1
    for (let node = value.result.edge; Array.isArray(node); node = node[0]) depth++
    expect(depth).toBe(1000)
  })

  it('a result nested past the cap is invalid-output with its path, not a crashed interpreter', async () => {
    const message = failureOf(
      await runCode(
        await app(),
        [
          'import sys',
          'sys.setrecursionlimit(10**6)',
          'deep = {}',
          'for _ in range(200_000): deep = {"k" * 100: [deep]}',
          'return deep',
        ].join('\n'),
      ),
    )
    expect(message).toMatch(
      /^code run failed \(invalid-output\): the result is not JSON: a value nested deeper than 1000 levels at \$(\["k{64}"\.\.\.\]\[0\]){8}\.\.\.(\["k{64}"\.\.\.\]\[0\]){8}$/,
    )
  })
})

describe('nothing a run leaves behind reaches the next run', () => {
  it('files, environment, builtins, modules and the event loop start fresh', async () => {
    const ctx = await app()
    const leave = await runCode(
      ctx,
      [
        'import builtins, os, sys',
        'for path in ("/tmp/left", "/home/pyodide/left", "/left"):',
        '    with open(path, "w") as f: f.write("left")',
        'os.environ["LEFT"] = "1"',
        'builtins.LEFT = 1',
        'json.LEFT = 1',
        'sys.modules["left"] = json',
        'asyncio.get_event_loop().call_later(0.01, lambda: None)',
        'return sorted(os.listdir("/tmp"))',
      ].join('\n'),
    )
    if (leave.isError) throw new Error(leave.error.message)
    expect((leave.value as { result: unknown }).result).toEqual(['left'])
    const read = await runCode(
      ctx,
      [
        'import builtins, os, sys',
        'return {',
        '    "files": [os.path.exists(p) for p in ("/tmp/left", "/home/pyodide/left", "/left")],',
        '    "tmp": os.listdir("/tmp"),',
        '    "env": os.environ.get("LEFT"),',
        '    "builtins": hasattr(builtins, "LEFT"),',
        '    "json": hasattr(json, "LEFT"),',
        '    "module": "left" in sys.modules,',
        '}',
      ].join('\n'),
    )
    if (read.isError) throw new Error(read.error.message)
    expect((read.value as { result: unknown }).result).toEqual({
      files: [false, false, false],
      tmp: [],
      env: null,
      builtins: false,
      json: false,
      module: false,
    })
  })
})

describe('the in-memory filesystem', () => {
  it('file bytes are capped at their part of maxMemoryMb (ENOSPC); deleting or truncating a file gives its bytes back', async () => {
    const result = await runCode(
      await app(),
      [
        'import errno, os',
        'chunk = b"x" * 10**7',
        'def fill(prefix):',
        '    # Bounded: without the cap these bytes would land in the host process.',
        '    for n in range(40):',
        '        try:',
        '            with open("/tmp/%s%d" % (prefix, n), "wb") as f:',
        '                f.write(chunk)',
        '        except OSError as error:',
        '            return [n, errno.errorcode.get(error.errno)]',
        '    return [40, None]',
        'first = fill("a")',
        'for name in os.listdir("/tmp"): os.remove("/tmp/" + name)',
        'second = fill("b")',
        'with open("/tmp/b0", "r+b") as f: f.truncate(0)',
        'third = fill("c")',
        'try:',
        '    os.truncate("/tmp/b1", 3 * 10**9)',
        '    grown = "allowed"',
        'except OSError as error:',
        '    grown = errno.errorcode.get(error.errno)',
        'return [first, second, third, grown]',
      ].join('\n'),
    )
    if (result.isError) throw new Error(result.error.message)
    // maxMemoryMb 128 gives memory and files 80 MiB together (memory-budget.ts); the booted
    // interpreter and the 10 MB chunk take about 42 of it, so 4 files of 10 MB fit.
    expect((result.value as { result: unknown }).result).toEqual([
      [4, 'ENOSPC'],
      [4, 'ENOSPC'],
      [1, 'ENOSPC'],
      'ENOSPC',
    ])
  })
})

describe('output', () => {
  it('a line written a character at a time costs its length, not its length squared', async () => {
    const result = await runCode(
      await app(),
      [
        'import sys',
        'for _ in range(600_000): print("x", end="")',
        'print("y", end="")',
        'sys.stdout.write("")',
        'sys.stderr.write("z\\n\\nw")',
      ].join('\n'),
    )
    if (result.isError) throw new Error(result.error.message)
    const { logs } = result.value as { logs: string[] }
    // A line is cut at 64 Ki characters; the rest is counted, not kept.
    expect(logs).toEqual([`${'x'.repeat(65_536)} [534466 more characters cut]`, '', 'w'])
  })

  it('what reaches file descriptors 1 and 2 directly, like a fatal error stack dump, is not program output', async () => {
    const message = failureOf(
      await runCode(
        await app(),
        [
          'import os, sys',
          'print("before")',
          'os.write(1, b"raw one\\n")',
          'os.write(2, b"raw two\\n")',
          'sys.setrecursionlimit(10**6)',
          'deep = []',
          'for _ in range(200_000): deep = [deep]',
          'print(repr(deep)[:10])',
        ].join('\n'),
      ),
    )
    expect(message).toBe(
      'code run failed (exception): the interpreter stopped after a fatal error\nCaptured output:\nbefore',
    )
  })
})

describe('tool names that collide with Python', () => {
  it('every name is callable in the form the rendered Python SDK declares, and reaches its own tool', async () => {
    const ctx = await app()
    const sdk = ctx.tools.assemble({}).sections.find((section) => section.id === 'tools:sdk')?.text ?? ''
    const methods = [...sdk.matchAll(/^ {4}async def (\w+)\(self, args: /gm)].map(
      (match) => match[1] as string,
    )
    const subscripts = [...sdk.matchAll(/^ {4}def __getitem__\(self, name: Literal\[("[^"]+")\]\)/gm)].map(
      (match) => JSON.parse(match[1] as string) as string,
    )
    expect([...methods, ...subscripts].sort()).toEqual([...COLLIDING_NAMES, 'echo'].sort())
    const calls = [
      ...methods.filter((name) => name !== 'echo').map((name) => `await tools.${name}({})`),
      ...subscripts.map((name) => `await tools[${JSON.stringify(name)}]({})`),
    ]
    const result = await runCode(
      ctx,
      [
        `got = [${calls.join(', ')}]`,
        // The bindings are not the object's own attributes: a dunder tool does not replace them.
        'assert type(tools).__name__ == "Tools" and str(tools).startswith("<tools: ")',
        'return got',
      ].join('\n'),
    )
    if (result.isError) throw new Error(result.error.message)
    expect((result.value as { result: unknown }).result).toEqual([
      ...methods.filter((name) => name !== 'echo'),
      ...subscripts,
    ])
  })
})

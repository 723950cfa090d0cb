/**
 * Output that never ends a line cannot exhaust the host (issue 21, symptom 1). Every path a byte
 * can take to file descriptors 1 and 2 — `os.write`, a file opened on `/dev/stdout`, the program's
 * `sys.stdout`/`sys.stderr` text and `.buffer` writes, `print(..., end="")` — is written 1 MiB
 * at a time without a newline, far past every cap, in a fresh host process: before the fix,
 * Pyodide's line-batched fd handler collected the bytes in a JavaScript array until the worker's
 * heap filled and V8 aborted the whole process (SIGABRT).
 */
import { describe, expect, it } from 'vitest'
import { spawnHost } from './fixtures/spawn-host'

// MiB per program. CI runs at the smallest memory budget (`maxMemoryMb: 128`: 32 MiB of worker
// heap, 16 MiB of output, 80 MiB of interpreter memory and files) and writes 160 MiB per path:
// more than the whole budget, twice the interpreter's part and five times the heap's, so bytes
// kept anywhere, even at one byte per byte, would end the run (the line-batched handler kept
// about 9 bytes of heap per byte: it filled the heap share within 4 MiB). `DSH_LONG=1` writes
// 1.5 GiB per path at the default 512 MiB budget.
const LONG = process.env.DSH_LONG === '1'
const CHUNKS = LONG ? 1536 : 160
const CONFIG = LONG ? {} : { maxMemoryMb: 128 }
const PROGRAMS = [
  `import os\nfor i in range(${CHUNKS}):\n    os.write(1, b"x" * (1 << 20))\nreturn "fd1"`,
  `import os\nfor i in range(${CHUNKS}):\n    os.write(2, b"x" * (1 << 20))\nreturn "fd2"`,
  `f = open("/dev/stdout", "wb", buffering=0)\nfor i in range(${CHUNKS}):\n    f.write(b"x" * (1 << 20))\nreturn "dev"`,
  `import sys\nfor i in range(${CHUNKS}):\n    sys.stdout.write("x" * (1 << 20))\nreturn "text"`,
  `import sys\nfor i in range(${CHUNKS}):\n    sys.stderr.buffer.write(b"x" * (1 << 20))\nreturn "buffer"`,
  `for i in range(${CHUNKS}):\n    print("x" * (1 << 20), end="")\nreturn "print"`,
]

describe('unterminated output to fd 1 and 2', () => {
  it('1 MiB writes without a newline on every path leave the host alive; a cut line is one log line', async () => {
    const exit = await spawnHost({ programs: PROGRAMS, config: CONFIG })
    expect(
      { code: exit.code, signal: exit.signal },
      `the host died during program ${exit.lastProgram}: ${exit.stderr.slice(-800)}`,
    ).toEqual({ code: 0, signal: null })
    const outcomes = exit.report!.programs
    // Raw fd bytes are the interpreter's own channel: dropped as they arrive, never logged.
    expect(outcomes.slice(0, 3)).toEqual([
      { ok: true, result: 'fd1', logs: 0 },
      { ok: true, result: 'fd2', logs: 0 },
      { ok: true, result: 'dev', logs: 0 },
    ])
    // The program's own streams: one unterminated line, cut at 64 Ki characters, the rest counted.
    const note = ` [${CHUNKS * 2 ** 20 - 65_536} more characters cut]`
    for (const [index, result] of ['text', 'buffer', 'print'].entries()) {
      expect(outcomes[3 + index]).toEqual({
        ok: true,
        result,
        logs: 1,
        lastLogLength: 65_536 + note.length,
        lastLogTail: 'x'.repeat(200 - note.length) + note,
      })
    }
  })
})

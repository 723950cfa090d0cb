/**
 * What one run can do to the process that hosts it, checked in a fresh host process (issue 21):
 * the host's RSS is sampled throughout, and a program that kills the host shows as the child's
 * signal or exit code instead of taking the test runner with it.
 *
 * The two checks share that process — one process start and one memory snapshot (a full
 * interpreter boot) instead of two — in phases of their own, each with its own runtime: the
 * memory budget runs first, so its baseline, peak and what dispose gives back are measured in a
 * host that has run nothing else; the unterminated output runs next, at its own budget.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { type HostExit, spawnHost } from './fixtures/spawn-host'

// `maxMemoryMb` bounds one run, all of its parts together (issue 21, symptom 4): a run at
// `maxMemoryMb: 512` used to grow the host by 1.7 GB, because the WebAssembly memory and the
// in-memory files each had the whole cap, next to the worker's own heap cap and the output. Here
// one run fills every part to its cap — files, then interpreter memory, then output — and then
// the runtime is disposed and, after forced collections, the host must have given the memory back.
const MAX_MEMORY_MB = 256
/**
 * What a run costs the host beyond `maxMemoryMb`, whatever the program does: the compiled
 * interpreter (machine code for the 10 MB WebAssembly module), the worker thread's V8 isolate and
 * Pyodide's JavaScript, and output messages in flight. A `return 1` run peaks at about 120 MiB
 * over the baseline on its own.
 */
const FIXED_OVERHEAD_MB = 160
/**
 * What the host may keep after dispose, in MiB of RSS: allocator slack and code caches, which vary
 * from run to run (46–71 MiB measured). The heap bound below is the one that shows references.
 */
const RETAINED_RSS_MB = 96
/** What the host's V8 heap and external memory may keep after dispose, in MiB. */
const RETAINED_HEAP_MB = 8

const FILL = [
  'files = memory = 0',
  'try:',
  '    with open("/tmp/fill", "wb") as f:',
  '        while True:',
  '            f.write(b"y" * (4 << 20))',
  '            files += 4',
  'except OSError:',
  '    pass',
  'keep = []',
  'try:',
  '    while True:',
  '        keep.append(bytearray(4 << 20))',
  '        memory += 4',
  'except MemoryError:',
  '    pass',
  'SHARES.append([files, memory])',
].join('\n')

const MEMORY_PROGRAMS = [
  // Files first, then memory: the two share one part of the budget.
  `SHARES = []\n${FILL}\nreturn SHARES[0]`,
  // Then the output: 60 000-character lines until maxOutputBytes (its part of the budget) stops the run.
  `SHARES = []\n${FILL}\nline = "z" * 60_000\nfor i in range(100_000):\n    print(line)`,
]

// Output that never ends a line cannot exhaust the host (issue 21, symptom 1). Every path a byte
// can take to file descriptors 1 and 2 — `os.write`, a file opened on `/dev/stdout`, the
// program's `sys.stdout`/`sys.stderr` text and `.buffer` writes, `print(..., end="")` — is
// written 1 MiB at a time without a newline, far past every cap: before the fix, Pyodide's
// line-batched fd handler collected the bytes in a JavaScript array until the worker's heap
// filled and V8 aborted the whole process (SIGABRT).
//
// MiB per program. CI runs at the smallest memory budget (`maxMemoryMb: 128`: 32 MiB of worker
// heap, 16 MiB of output, 80 MiB of interpreter memory and files) and writes 160 MiB per path:
// more than the whole budget, twice the interpreter's part and five times the heap's, so bytes
// kept anywhere, even at one byte per byte, would end the run (the line-batched handler kept
// about 9 bytes of heap per byte: it filled the heap share within 4 MiB). `DSH_LONG=1` writes
// 1.5 GiB per path at the default 512 MiB budget.
const LONG = process.env.DSH_LONG === '1'
const CHUNKS = LONG ? 1536 : 160
const FD_CONFIG = LONG ? {} : { maxMemoryMb: 128 }
const FD_PROGRAMS = [
  `import os\nfor i in range(${CHUNKS}):\n    os.write(1, b"x" * (1 << 20))\nreturn "fd1"`,
  `import os\nfor i in range(${CHUNKS}):\n    os.write(2, b"x" * (1 << 20))\nreturn "fd2"`,
  `f = open("/dev/stdout", "wb", buffering=0)\nfor i in range(${CHUNKS}):\n    f.write(b"x" * (1 << 20))\nreturn "dev"`,
  `import sys\nfor i in range(${CHUNKS}):\n    sys.stdout.write("x" * (1 << 20))\nreturn "text"`,
  `import sys\nfor i in range(${CHUNKS}):\n    sys.stderr.buffer.write(b"x" * (1 << 20))\nreturn "buffer"`,
  `for i in range(${CHUNKS}):\n    print("x" * (1 << 20), end="")\nreturn "print"`,
]

let exit: HostExit
// Both phases run before the checks: under `DSH_LONG=1` the output phase alone writes 9 GiB.
beforeAll(
  async () => {
    exit = await spawnHost({
      phases: [
        { programs: MEMORY_PROGRAMS, config: { maxMemoryMb: MAX_MEMORY_MB } },
        { programs: FD_PROGRAMS, config: FD_CONFIG },
      ],
    })
  },
  LONG ? 900_000 : undefined,
)

/** Where the host was when it ended, for a failure's message. */
const ending = () =>
  `the host ended (code ${exit.code}, signal ${exit.signal}) during program ${exit.lastProgram}: ${exit.stderr.slice(-800)}`

describe('one memory budget per run', () => {
  it(`a run that fills files, memory and output at maxMemoryMb ${MAX_MEMORY_MB} grows the host by at most that plus a fixed overhead, and dispose gives it back`, () => {
    // The first phase's report is printed before the second phase starts.
    const report = exit.phases[0]
    expect(report, ending()).toBeDefined()
    const [shared, flood] = report!.programs
    const [files, memory] = shared!.result as [number, number]
    const growth = report!.peakRssMb - report!.baselineRssMb
    console.info(
      `memory budget at maxMemoryMb ${MAX_MEMORY_MB}: files ${files} MiB + memory ${memory} MiB; ` +
        `peak RSS growth ${growth.toFixed(0)} MiB, kept after dispose ${(report!.disposedRssMb - report!.baselineRssMb).toFixed(0)} MiB RSS, ` +
        `${(report!.disposedHeapMb - report!.baselineHeapMb).toFixed(1)} MiB heap`,
    )
    expect(growth, 'peak RSS growth over the warmed-up host (MiB)').toBeLessThanOrEqual(
      MAX_MEMORY_MB + FIXED_OVERHEAD_MB,
    )
    expect(report!.disposedRssMb - report!.baselineRssMb, 'RSS kept after dispose (MiB)').toBeLessThanOrEqual(
      RETAINED_RSS_MB,
    )
    expect(
      report!.disposedHeapMb - report!.baselineHeapMb,
      'heap kept after dispose (MiB)',
    ).toBeLessThanOrEqual(RETAINED_HEAP_MB)
    // 256 MiB: 160 MiB for memory and files together, the booted interpreter's ~30 MiB included.
    expect(files).toBeGreaterThan(64)
    expect(files + memory).toBeLessThanOrEqual(160)
    expect(flood).toMatchObject({ ok: false, kind: 'output-limit' })
    expect(flood!.message).toContain(`maxOutputBytes (${(MAX_MEMORY_MB / 8) * 1024 * 1024} bytes)`)
  })
})

describe('unterminated output to fd 1 and 2', () => {
  it('1 MiB writes without a newline on every path leave the host alive; a cut line is one log line', () => {
    expect({ code: exit.code, signal: exit.signal }, ending()).toEqual({ code: 0, signal: null })
    expect(exit.phases, ending()).toHaveLength(2)
    const outcomes = exit.phases[1]!.programs
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

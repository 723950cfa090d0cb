/**
 * `maxMemoryMb` bounds one run, all of its parts together (issue 21, symptom 4): a run at
 * `maxMemoryMb: 512` used to grow the host by 1.7 GB, because the WebAssembly memory and the
 * in-memory files each had the whole cap, next to the worker's own heap cap and the output. Here
 * one run fills every part to its cap — files, then interpreter memory, then output — in a fresh
 * host process, whose RSS is sampled throughout; then the runtime is disposed and, after forced
 * collections, the host must have given the memory back.
 */
import { describe, expect, it } from 'vitest'
import { spawnHost } from './fixtures/spawn-host'

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

const PROGRAMS = [
  // Files first, then memory: the two share one part of the budget.
  `SHARES = []\n${FILL}\nreturn SHARES[0]`,
  // Then the output: 60 000-character lines until maxOutputBytes (its part of the budget) stops the run.
  `SHARES = []\n${FILL}\nline = "z" * 60_000\nfor i in range(100_000):\n    print(line)`,
]

describe('one memory budget per run', () => {
  it(`a run that fills files, memory and output at maxMemoryMb ${MAX_MEMORY_MB} grows the host by at most that plus a fixed overhead, and dispose gives it back`, async () => {
    const exit = await spawnHost({ programs: PROGRAMS, config: { maxMemoryMb: MAX_MEMORY_MB } })
    expect({ code: exit.code, signal: exit.signal }, exit.stderr.slice(-800)).toEqual({
      code: 0,
      signal: null,
    })
    const report = exit.report!
    const [shared, flood] = report.programs
    const [files, memory] = shared!.result as [number, number]
    const growth = report.peakRssMb - report.baselineRssMb
    console.info(
      `memory budget at maxMemoryMb ${MAX_MEMORY_MB}: files ${files} MiB + memory ${memory} MiB; ` +
        `peak RSS growth ${growth.toFixed(0)} MiB, kept after dispose ${(report.disposedRssMb - report.baselineRssMb).toFixed(0)} MiB RSS, ` +
        `${(report.disposedHeapMb - report.baselineHeapMb).toFixed(1)} MiB heap`,
    )
    expect(growth, 'peak RSS growth over the warmed-up host (MiB)').toBeLessThanOrEqual(
      MAX_MEMORY_MB + FIXED_OVERHEAD_MB,
    )
    expect(report.disposedRssMb - report.baselineRssMb, 'RSS kept after dispose (MiB)').toBeLessThanOrEqual(
      RETAINED_RSS_MB,
    )
    expect(
      report.disposedHeapMb - report.baselineHeapMb,
      'heap kept after dispose (MiB)',
    ).toBeLessThanOrEqual(RETAINED_HEAP_MB)
    // 256 MiB: 160 MiB for memory and files together, the booted interpreter's ~30 MiB included.
    expect(files).toBeGreaterThan(64)
    expect(files + memory).toBeLessThanOrEqual(160)
    expect(flood).toMatchObject({ ok: false, kind: 'output-limit' })
    expect(flood!.message).toContain(`maxOutputBytes (${(MAX_MEMORY_MB / 8) * 1024 * 1024} bytes)`)
  })
})

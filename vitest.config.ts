import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

// The root run: every package and example is a vitest project with its own config, and so is
// the docs check (docs/tests: the markdown against the code it describes).
export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'examples/*/vitest.config.ts', 'docs/vitest.config.ts'],
    reporters: ['default', './scripts/summary-reporter.ts'],
    // vitest's default is one worker per core but one, which on a 2-core machine is a single
    // worker: every file in a row while the second core idles in the gaps. Most integration
    // files spend part of their time waiting on their own child processes, worker threads and
    // timers, so one file more than cores keeps every core busy: on 2 idle cores the full run
    // took 304 s with one worker, 245 s with two and 216 s with three (same tree, 2026-12-03).
    maxWorkers: availableParallelism() + 1,
  },
})

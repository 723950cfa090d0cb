import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

// The root run: every package and example is a vitest project with its own config, and so is
// the docs check (docs/tests: the markdown against the code it describes).
export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'examples/*/vitest.config.ts', 'docs/vitest.config.ts'],
    reporters: ['default', './scripts/summary-reporter.ts'],
    // vitest's default is one worker per core but one, which on a 2-core machine is a single
    // worker: every file in a row while the second core idles in the gaps (waiting on child
    // processes, worker boots, I/O). Two files at once on two cores: 304 s → 245 s on 2 idle
    // cores (2026-12-03). Three (216 s) made timing-sensitive files fail under CI load (the
    // sandboxed SIGKILL-after-grace case of tool-bash's run-command among them), so not yet.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
})

import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'
import { sharedConfig } from './vitest.shared.ts'

// Pyodide's files run in their own project: its per-test timeout covers an interpreter boot on
// a busy host (see its vitest.config.ts).
const PYODIDE = 'packages/code-runtime-pyodide'

// The root run. Every package's, example's and the docs check's tests (docs/tests: the markdown
// against the code it describes) in ONE project, not one project per package: each project has
// its own Vite server, which transforms every source module it imports again, so 22 projects
// transformed tools-core's sources about 20 times. Collecting every file cost 81 s of CPU as 22
// projects and 26 s as one (2026-12-03). A package's own `vitest.config.ts` still runs it alone
// (`cd packages/<name> && npx vitest run`).
export default defineConfig({
  test: {
    projects: [
      `${PYODIDE}/vitest.config.ts`,
      {
        ...sharedConfig,
        test: {
          ...sharedConfig.test,
          name: 'dsh',
          include: [
            'packages/*/tests/**/*.spec.ts',
            'examples/*/tests/**/*.spec.ts',
            'docs/tests/**/*.spec.ts',
          ],
          exclude: [...(sharedConfig.test?.exclude ?? []), `${PYODIDE}/**`],
        },
      },
    ],
    reporters: ['default', './scripts/summary-reporter.ts'],
    // vitest's default is one worker per core but one, which on a 2-core machine is a single
    // worker: every file in a row while the second core idles in the gaps (waiting on child
    // processes, worker boots, I/O). Two files at once on two cores: 304 s → 245 s on 2 idle
    // cores (2026-12-03). Three (216 s) made timing-sensitive files fail under CI load (the
    // sandboxed SIGKILL-after-grace case of tool-bash's run-command among them), so not yet.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
})

import { defineConfig } from 'vitest/config'

// The root run: every package and example is a vitest project with its own config, and so is
// the docs check (docs/tests: the markdown against the code it describes).
export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'examples/*/vitest.config.ts', 'docs/vitest.config.ts'],
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
})

import { defineConfig } from 'vitest/config'

// The root run: every package and example is a vitest project with its own config.
export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'examples/*/vitest.config.ts'],
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
})

import { defineConfig, mergeConfig } from 'vitest/config'
import { sharedConfig } from '../../vitest.shared.ts'

export default mergeConfig(
  sharedConfig,
  defineConfig({
    test: {
      // Only with `--coverage` (`pnpm coverage`). Worker code also runs bundled, from a string,
      // inside worker threads that V8 coverage does not see: its modules are covered by the
      // in-process tests that import them (tests/node-vm-*.spec.ts).
      coverage: {
        provider: 'v8',
        include: ['src/**/*.ts'],
        exclude: ['src/**/generated/**', 'src/**/*.d.ts'],
        reporter: ['text', 'text-summary'],
        reportsDirectory: './coverage',
      },
    },
  }),
)

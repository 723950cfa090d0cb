import { configDefaults, defineConfig } from 'vitest/config'

/**
 * What `pnpm test:quick` (`DSH_QUICK=1`) leaves out: integration tests (real processes, workers,
 * sandboxes, interpreters), property tests (large seeded samples), and the unit files that spend
 * seconds on stack-deep values or on whole demo runs. Everything else is the quick loop.
 */
const QUICK_EXCLUDE = [
  '**/*.integration.spec.ts',
  '**/*.property.spec.ts',
  '**/deep-nesting.spec.ts',
  '**/codegen-full-schema.spec.ts',
  '**/to-provider-schema.spec.ts',
  '**/tests/{demo,cli,readme-samples,providers,openai-live}.spec.ts',
]

/**
 * Shared vitest settings. Workspace packages resolve through the `@dsh/source`
 * export condition, so a package's tests run against its dependencies' sources
 * without a prior build.
 */
export const sharedConfig = defineConfig({
  resolve: { conditions: ['@dsh/source'] },
  ssr: { resolve: { conditions: ['@dsh/source'] } },
  test: {
    include: ['tests/**/*.spec.ts'],
    exclude: [...configDefaults.exclude, ...(process.env['DSH_QUICK'] === '1' ? QUICK_EXCLUDE : [])],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Files in a worker share its module cache instead of re-importing the toolkit per file
    // (most of a small spec file's time). Spec files keep no state between them: each boots and
    // disposes its own runtimes and restores any switch it flips (see CONTRIBUTING.md).
    isolate: false,
  },
})

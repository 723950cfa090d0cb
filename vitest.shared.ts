import { defineConfig } from 'vitest/config'

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
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
})

import { defineConfig, mergeConfig } from 'vitest/config'
import { sharedConfig } from '../../vitest.shared.ts'

// Each test run boots real Pyodide interpreters (seconds of CPU each): files run one at a time
// so they do not compete for the machine, and the per-test timeout covers a boot on a busy host.
export default mergeConfig(
  sharedConfig,
  defineConfig({ test: { testTimeout: 180_000, hookTimeout: 180_000, fileParallelism: false } }),
)

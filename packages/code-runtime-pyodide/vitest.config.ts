import { defineConfig, mergeConfig } from 'vitest/config'
import { sharedConfig } from '../../vitest.shared.ts'

// Each test run boots real Pyodide interpreters (seconds of CPU each): the per-test timeout
// covers a boot on a busy host. `isolate: false` runs the files a vitest worker takes in one
// process, so they share the process's one memory snapshot (made once, a full interpreter boot)
// instead of making one per file. Each run still gets its own fresh worker and interpreter;
// spec files share no other state.
export default mergeConfig(
  sharedConfig,
  defineConfig({
    test: { testTimeout: 180_000, hookTimeout: 180_000, isolate: false },
  }),
)

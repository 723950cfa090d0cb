import { defineConfig, mergeConfig } from 'vitest/config'
import { sharedConfig } from '../../vitest.shared.ts'

// Each file in a fresh module graph: the sandbox library keeps process-wide state (its manager,
// the one-time startup warning the tests count), so files must not share it.
export default mergeConfig(sharedConfig, defineConfig({ test: { isolate: true } }))

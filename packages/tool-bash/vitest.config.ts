import { defineConfig, mergeConfig } from 'vitest/config'
import { sharedConfig } from '../../vitest.shared.ts'

// Each file in a fresh module graph (`isolate: true`): with graphs shared (`isolate: false`),
// `.ci/run` twice saw the sandboxed "a child ignoring SIGTERM is killed with SIGKILL after the
// grace" leave its marked processes alive after the run settled — some state another file's
// sandbox set up (@anthropic-ai/sandbox-runtime keeps process-wide state) reaches this one.
// Until that is understood, tool-bash pays its imports once per file.
export default mergeConfig(sharedConfig, defineConfig({ test: { isolate: true } }))

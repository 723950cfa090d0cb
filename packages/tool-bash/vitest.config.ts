import { sharedConfig } from '../../vitest.shared.ts'

// Files share their worker's module graph like every package's (`isolate: false`): the sandbox
// probe's cached answer and the planner worker are per process by design, and each file's tools
// are per Context, so no file sees another's state.
export default sharedConfig

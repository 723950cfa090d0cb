import { sharedConfig } from '../../vitest.shared.ts'

// Files share their worker's module graph like every package's (`isolate: false`): the sandbox
// probe's cached answer and the planner worker are per process by design, and each file's tools
// are per Context, so no file sees another's state. (Sharing once made a sandboxed abort leave
// its processes running: not shared state but load — an abort before bubblewrap's init armed its
// die-with-parent signal. `StrayProcesses` fixed that; run-command.integration pins it.)
export default sharedConfig

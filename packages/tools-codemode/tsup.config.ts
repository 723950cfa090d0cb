import type { Options } from 'tsup'
import { sharedTsupConfig } from '../../tsup.shared.ts'

// Two entries: the main barrel and the `./testing` subpath.
const config: Options = { ...sharedTsupConfig, entry: { index: 'src/index.ts', testing: 'src/testing.ts' } }
export default config

import type { Options } from 'tsup'
import { sharedTsupConfig } from '../../tsup.shared.ts'

// Three entries: the main barrel, the `./testing` subpath and the `./runtime-kit` subpath.
// esbuild (a development dependency the testing subpath imports when it is installed) is never
// bundled.
const config: Options = {
  ...sharedTsupConfig,
  entry: { index: 'src/index.ts', testing: 'src/testing.ts', 'runtime-kit': 'src/runtime-kit/index.ts' },
  external: ['esbuild'],
}
export default config

// The package's whole public API, pinned: a reference plugin is copied by plugin authors, and
// whatever it exports reads as a promise. Adding a name means changing this list on purpose.
import { describe, it } from 'vitest'
import { surfaceChecks } from '../../../scripts/public-surface'
import * as entry from '../src/index'

const SURFACE = {
  values: ['Config', 'FS_TOOL_ERROR_CODES', 'apply', 'inject', 'name'],
  types: ['FsToolErrorCode', 'FsToolValues', 'FsToolsConfigInput'],
}

const checks = surfaceChecks(import.meta.url, entry, SURFACE)

describe('public surface', () => {
  it(
    'exports the plugin, its config and what a caller of the fs tools branches on, nothing else',
    checks.exports,
  )
  it('the README API section lists exactly the exports', checks.readme)
})

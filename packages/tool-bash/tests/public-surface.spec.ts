// The package's whole public API, pinned: a reference plugin is copied by plugin authors, and
// whatever it exports reads as a promise. Adding a name means changing this list on purpose.
import { describe, it } from 'vitest'
import { surfaceChecks } from '../../../scripts/public-surface'
import * as entry from '../src/index'

const SURFACE = {
  values: ['BASH_ERROR_CODES', 'BASH_TOOL_NAME', 'Config', 'apply', 'inject', 'name'],
  types: ['BashArgs', 'BashConfigInput', 'BashResult'],
}

const checks = surfaceChecks(import.meta.url, entry, SURFACE)

describe('public surface', () => {
  it('exports the plugin, its config and what a caller of bash branches on, nothing else', checks.exports)
  it('the README API section lists exactly the exports', checks.readme)
})

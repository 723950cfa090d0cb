// The package's whole public API, pinned: a reference plugin is copied by plugin authors, and
// whatever it exports reads as a promise. Adding a name means changing this list on purpose.
import { describe, it } from 'vitest'
import { surfaceChecks } from '../../../scripts/public-surface'
import * as entry from '../src/index'

const SURFACE = {
  values: ['Config', 'apply', 'inject', 'name'],
  types: ['WordCountConfig', 'WordCountValue'],
}

const checks = surfaceChecks(import.meta.url, entry, SURFACE)

describe('public surface', () => {
  it('exports the plugin, its config and the value type of word_count, nothing else', checks.exports)
  it('the README API section lists exactly the exports', checks.readme)
})

// The package's whole public API, pinned: a reference plugin is copied by plugin authors, and
// whatever it exports reads as a promise. Adding a name means changing this list on purpose.
import { describe, it } from 'vitest'
import { surfaceChecks } from '../../../scripts/public-surface'
import * as entry from '../src/index'

const SURFACE = {
  values: [
    'Config',
    'MAX_CAPTURED_PAYLOAD_CHARS',
    'TRACER_NAME',
    'ToolOtel',
    'ToolSpanAttributes',
    'ToolSpanEvents',
    'default',
  ],
  types: ['ToolOtelConfig'],
}

const checks = surfaceChecks(import.meta.url, entry, SURFACE)

describe('public surface', () => {
  it('exports the plugin, its config and the names its spans carry, nothing else', checks.exports)
  it('the README API section lists exactly the exports', checks.readme)
})

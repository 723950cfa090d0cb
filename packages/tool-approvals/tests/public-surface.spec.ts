// The package's whole public API, pinned: a reference plugin is copied by plugin authors, and
// whatever it exports reads as a promise. Adding a name means changing this list on purpose.
import { describe, expect, it } from 'vitest'
import { MAX_REFERENCE_EXPORTS, publicSurface, readmeApiNames } from '../../../scripts/public-surface'
import * as entry from '../src/index'

const SURFACE = {
  values: ['ApprovalDecisionError', 'Config', 'ToolApprovals', 'default'],
  types: ['ApprovalDecisionInput', 'ApprovalQuery', 'ApprovalView', 'ToolApprovalsConfig'],
}

describe('public surface', () => {
  it('exports the plugin, its config and the types of the approval service, nothing else', () => {
    const surface = publicSurface(new URL('../src/index.ts', import.meta.url))
    expect(surface).toEqual(SURFACE)
    expect(Object.keys(entry).sort()).toEqual(SURFACE.values)
    expect(surface.values.length + surface.types.length).toBeLessThanOrEqual(MAX_REFERENCE_EXPORTS)
  })

  it('the README API section lists exactly the exports', () => {
    expect(readmeApiNames(new URL('../README.md', import.meta.url))).toEqual(
      [...SURFACE.values, ...SURFACE.types].sort(),
    )
  })
})

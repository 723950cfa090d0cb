import { describe, expect, it } from 'vitest'
import { fileDiff } from '../src/file-diff'

describe('fileDiff', () => {
  it('produces a unified patch with counts', () => {
    expect(fileDiff('a.txt', 'a\nb\n', 'a\nc\nd\n', 1000)).toEqual({
      patch: '--- a.txt\n+++ a.txt\n@@ -1,2 +1,3 @@\n a\n-b\n+c\n+d\n',
      added: 2,
      removed: 1,
      omitted: false,
    })
  })

  it('omits hunks above the size cap or for an unloaded old version', () => {
    expect(fileDiff('a.txt', 'x\n'.repeat(10), 'y\n', 5)).toMatchObject({
      added: 1,
      removed: 10,
      omitted: true,
    })
    expect(fileDiff('a.txt', { lines: 7 }, 'y', 1000)).toEqual({
      patch: '--- a.txt\n+++ a.txt\n',
      added: 1,
      removed: 7,
      omitted: true,
    })
  })
})

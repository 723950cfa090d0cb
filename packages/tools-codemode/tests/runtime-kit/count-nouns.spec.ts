// Limit messages put a count's noun in the right number ("1 level", "1 line", "1 byte").
import { describe, expect, it } from 'vitest'
import { jsonShapeMessage } from '../../src/runtime-kit/json-text-shape'
import { OutputMeter, utf8LineCost } from '../../src/runtime-kit/output-meter'

const keys = { maxNodes: 'maxValueNodes', maxDepth: 'maxValueDepth' }

describe('runtime-kit limit messages', () => {
  it('value shape: 1 level / 1 JSON value, plural otherwise', () => {
    expect(jsonShapeMessage('the result', { limit: 'maxDepth', max: 1 }, keys)).toBe(
      'the result nests more than 1 level deep (`maxValueDepth`)',
    )
    expect(jsonShapeMessage('the result', { limit: 'maxDepth', max: 2 }, keys)).toContain(
      'more than 2 levels deep',
    )
    expect(jsonShapeMessage('the result', { limit: 'maxNodes', max: 1 }, keys)).toContain(
      'holds more than 1 JSON value (',
    )
  })

  it('output: maxLogLines 1 is "1 line", maxOutputBytes 1 is "1 byte"', () => {
    const lines = new OutputMeter({ maxOutputBytes: 100, maxLogLines: 1 }, utf8LineCost)
    expect(lines.admitLine('a')).toBeUndefined()
    expect(lines.admitLine('b')).toBe('output exceeded maxLogLines (1 line)')
    const bytes = new OutputMeter({ maxOutputBytes: 1 }, utf8LineCost)
    expect(bytes.admitLine('ab')).toBe('output exceeded maxOutputBytes (1 byte)')
  })
})

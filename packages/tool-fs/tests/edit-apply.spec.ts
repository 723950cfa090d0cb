import { describe, expect, it } from 'vitest'
import { applyEdit, usesCrlf } from '../src/edit-apply'

const edit = (text: string, oldString: string, newString: string, replaceAll = false) =>
  applyEdit(text, { oldString, newString, replaceAll, label: 'f.txt' })

describe('applyEdit', () => {
  it('replaces a unique literal match, treating $ and regex characters literally', () => {
    expect(edit('a.b(c) d', 'a.b(c)', '$&$1')).toEqual({ content: '$&$1 d', replacements: 1 })
  })

  it('rejects a non-unique match unless replace_all, and reports the count', () => {
    expect(() => edit('x x x', 'x', 'y')).toThrow(expect.objectContaining({ code: 'EDIT_NOT_UNIQUE' }))
    expect(() => edit('x x x', 'x', 'y')).toThrow(/occurs 3 times/)
    expect(edit('x x x', 'x', 'y', true)).toEqual({ content: 'y y y', replacements: 3 })
  })

  it('reports a missing old_string clearly', () => {
    expect(() => edit('hello', 'bye', 'x')).toThrow(expect.objectContaining({ code: 'EDIT_NOT_FOUND' }))
    expect(() => edit('hello', 'bye', 'x')).toThrow(/not found in f\.txt/)
  })

  it('refuses no-op edits', () => {
    expect(() => edit('a', '', 'b')).toThrow(expect.objectContaining({ code: 'EDIT_NO_CHANGE' }))
    expect(() => edit('a', 'a', 'a')).toThrow(expect.objectContaining({ code: 'EDIT_NO_CHANGE' }))
  })

  it('matches an LF old_string in a CRLF file and writes CRLF', () => {
    const result = edit('one\r\ntwo\r\nthree\r\n', 'one\ntwo\n', 'uno\ndos\n')
    expect(result.content).toBe('uno\r\ndos\r\nthree\r\n')
  })

  it('keeps CRLF when new_string adds lines to a single-line match', () => {
    expect(edit('a\r\nb\r\n', 'b', 'b\nc').content).toBe('a\r\nb\r\nc\r\n')
  })

  it('leaves LF files and untouched lines of mixed files alone', () => {
    expect(edit('a\nb\n', 'a\nb', 'x\ny').content).toBe('x\ny\n')
    expect(edit('a\r\nb\nc\r\n', 'b', 'B').content).toBe('a\r\nB\nc\r\n')
  })

  it('preserves a UTF-8 BOM and never matches it', () => {
    expect(edit('\uFEFFhello', 'hello', 'bye').content).toBe('\uFEFFbye')
  })
})

describe('usesCrlf', () => {
  it('is true when CRLF dominates', () => {
    expect(usesCrlf('a\r\nb\r\nc\n')).toBe(true)
    expect(usesCrlf('a\nb\nc\r\n')).toBe(false)
    expect(usesCrlf('abc')).toBe(false)
  })
})

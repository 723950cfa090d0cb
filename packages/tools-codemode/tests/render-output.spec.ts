import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { EMPTY_RUN_OUTPUT_TEXT, renderResultJson, renderRunCodeOutput } from '../src/render-output'

describe('renderRunCodeOutput', () => {
  it('renders a string result raw', () => {
    expect(renderRunCodeOutput({ logs: [], result: 'line 1\n"quoted"' })).toBe('line 1\n"quoted"')
  })

  it('keeps a null result explicit', () => {
    expect(renderRunCodeOutput({ logs: [], result: null })).toBe('null')
  })

  it('shows the placeholder when nothing was printed or returned', () => {
    expect(renderRunCodeOutput({ logs: [] })).toBe(EMPTY_RUN_OUTPUT_TEXT)
    expect(EMPTY_RUN_OUTPUT_TEXT).toBe('(run_code completed with no output)')
  })

  it('prints the logs, then the rendered result', () => {
    expect(renderRunCodeOutput({ logs: ['a', 'b'], result: { n: 1 } })).toBe('a\nb\n{\n  "n": 1\n}')
    expect(renderRunCodeOutput({ logs: ['only logs'] })).toBe('only logs')
  })

  it('renders numbers and booleans as JSON', () => {
    expect(renderRunCodeOutput({ logs: [], result: 0 })).toBe('0')
    expect(renderRunCodeOutput({ logs: [], result: false })).toBe('false')
  })
})

describe('renderResultJson', () => {
  it('matches JSON.stringify(value, null, 2) while indentation stays within 10 characters', () => {
    const value = { a: [1, { b: 'x', c: [] }], d: {}, e: null, f: { g: { h: true } } }
    expect(renderResultJson(value)).toBe(JSON.stringify(value, null, 2))
  })

  it('prints subtrees deeper than 10 characters of indentation compact', () => {
    const value = { l1: { l2: { l3: { l4: { l5: { l6: [1, { x: 'y' }] } } } } } }
    const text = renderResultJson(value)
    const widest = Math.max(...text.split('\n').map((line) => line.length - line.trimStart().length))
    expect(widest).toBeLessThanOrEqual(10)
    expect(text).toContain('"l5": {"l6":[1,{"x":"y"}]}')
    expect(JSON.parse(text)).toEqual(value)
  })

  it('renders a value nested 100,000 levels deep without a stack overflow', () => {
    let value: unknown = 'leaf'
    for (let i = 0; i < 100_000; i++) value = i % 2 === 0 ? [value] : { k: value }
    const text = renderResultJson(value as never)
    expect(text).toContain('["leaf"]')
    expect(text.endsWith('}]}]\n        }\n      ]\n    }\n  ]\n}')).toBe(true)
    expect(text.length).toBeGreaterThan(400_000)
  })

  it('round-trips any JSON value through JSON.parse', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const normalized = JSON.parse(JSON.stringify(value))
        expect(JSON.parse(renderResultJson(normalized))).toEqual(normalized)
      }),
    )
  })
})
